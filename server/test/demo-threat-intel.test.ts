/**
 * The demo's exploit intelligence (issue 36, item 5): at first start the demo organization comes
 * with a generated EPSS file for its CVEs, marked `model_version:demo`, and a KEV catalog of its
 * KEV CVEs marked with the demo's date, so that a newcomer sees CVEs scored and not scored, and a
 * source (ENISA's) with no file.
 */
import { expect, it } from 'vitest';
import { cveCatalog, generateInventory } from '../demo/index.js';
import { demoEpssFile, demoKevCatalog } from '../demo/threat-intel.js';
import { demoSeed, ensureDemoOrganization } from '../organizations/ensure-demo-organization.js';
import { Store } from '../store/store.js';
import { identitySealer } from './support/identity-sealer.js';

const now = Date.UTC(2026, 10, 28, 15, 30);

it('imports the demo’s generated EPSS file and KEV catalog at first start, dated from that day and marked demo', async () => {
  expect(demoEpssFile(now)).toBe(demoEpssFile(now + 3_600_000));
  expect(demoKevCatalog(now)).toBe(demoKevCatalog(now));
  const store = await Store.open({ clock: () => now });
  try {
    await ensureDemoOrganization(store, identitySealer);
    expect(store.intel.list().map(({ kind, source_date, version, current, finished }) => ({ kind, source_date, version, current, finished }))).toEqual([
      { kind: 'cisa-kev', source_date: '2026-11-28T00:00:00.000Z', version: 'demo', current: true, finished: true },
      { kind: 'epss', source_date: '2026-11-28T00:00:00.000Z', version: 'demo', current: true, finished: true },
    ]);
    const kevCves = cveCatalog.filter((cve) => cve.kev);
    expect(store.intel.kev.count('cisa')).toBe(kevCves.length);
    for (const cve of kevCves) {
      const [listing] = store.intel.kev.listings(cve.id);
      expect(listing!.dateAdded < '2026-11-28' && listing!.dueDate! > listing!.dateAdded).toBe(true);
    }
    expect(store.intel.kev.count('eu')).toBe(0);
    const findingCves = [...new Set(generateInventory('demo', demoSeed).findings.map((finding) => finding.cve_id))];
    const scored = store.intel.epss.current(findingCves);
    // Both states among the demo's own CVEs: most scored, some not.
    expect(scored.size).toBeGreaterThan(findingCves.length / 2);
    expect(scored.size).toBeLessThan(findingCves.length);
    for (const { epss, percentile } of scored.values()) expect(epss > 0 && epss < 1 && percentile > 0 && percentile <= 1).toBe(true);
  } finally {
    store.close();
  }
});
