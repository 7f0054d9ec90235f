import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { WorkPackage } from '../../contracts/console/work-packages.js';
import { workPackageExportFormats } from '../../contracts/console/work-package-basics.js';
import { exportChunks } from './export-stream.js';

/** A work package of step `n`, with a few endpoints, one of its hostnames needing quotes and a formula guard. */
function workPackage(n: number): WorkPackage {
  return {
    external_id: `rc-${n.toString(16).padStart(20, '0')}`,
    step: n + 1,
    product_id: `p${n}`,
    vendor: `Vendor ${n % 7}`,
    product: `Product "${n}", edition`,
    update_to: { verdict: 'update_to', version_id: `v${n}`, version: `1.${n}.0`, sentence: `Update to 1.${n}.0 (run by 3 endpoints, no open critical or KEV finding).` },
    endpoints: [0, 1, 2].map((e) => ({ endpoint_id: `e${n}-${e}`, hostname: e === 2 ? `=host-${n}` : `host-${n}-${e}`, tags: e === 0 ? ['finance', 'sox'] : [], criticality: 'normal' })),
    findings: { total: 4, by_severity: { critical: 3, high: 1, medium: 0, low: 0, info: 0 }, kev: n % 2, epss_sum: n % 3 === 0 ? null : 0.5 },
    due_at: '2026-12-02T10:15:00.000Z',
    priority: n % 2 ? 'highest' : 'high',
    owner: '',
    note: '',
    ticket: null,
    still_vulnerable: null,
  };
}

const packages = Array.from({ length: 5_000 }, (_, n) => workPackage(n));
const meta = { organization: 'acme', generatedAt: '2026-11-28T12:00:00.000Z' };

describe('exportChunks', () => {
  it.each(workPackageExportFormats)('writes 5,000 steps as %s in chunks of at most 100 steps, which an independent reader reads whole', async (format) => {
    const chunks: string[] = [];
    for await (const chunk of exportChunks(packages, format, meta)) chunks.push(chunk);
    // The header, 50 chunks of 100 steps, the end: never the file as one string.
    expect(chunks).toHaveLength(52);
    const text = chunks.join('');
    const program =
      format === 'json'
        ? 'import json, sys\nd = json.load(sys.stdin)\nprint(len(d["data"]), d["data"][4999]["external_id"])'
        : 'import csv, io, sys\nrows = list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))\nh = rows[0]\ni = h.index("External ID") if "External ID" in h else h.index("u_external_id")\nprint(len(rows) - 1, rows[5000][i])';
    expect(execFileSync('python3', ['-c', program], { input: text, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim()).toBe(`5000 ${packages[4999]!.external_id}`);
  });
});
