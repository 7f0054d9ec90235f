import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { epssCsv } from '../../test/support/epss-files.js';
import { scanMilliseconds } from '../../test/support/linear-time.js';
import { TimeSlices } from '../derived/time-slices.js';
import { cveIdOfKey, cveKey } from './cve-key.js';
import { rowScoring } from './epss-file.js';
import { readIntelFile } from './intel-file.js';

const read = (text: string | Uint8Array) => readIntelFile(typeof text === 'string' ? new TextEncoder().encode(text) : text, new TimeSlices(() => undefined));

describe('reading an intelligence file', () => {
  it('maps CVE ids to keys one to one, any case, and back', () => {
    for (const id of ['CVE-1999-0001', 'CVE-2021-44228', 'CVE-2024-1000000', 'CVE-2099-123456789']) expect(cveIdOfKey(cveKey(id)!)).toBe(id);
    expect(cveKey('cve-2021-44228')).toBe(cveKey('CVE-2021-44228'));
    expect([cveKey('CVE-2021-044228'), cveKey('CVE-2021-123'), cveKey('CVE-2021-1234567890'), cveKey('CVE-21-1234')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("reads FIRST's CSV with Windows line ends, a byte-order mark, an offset written +0000 and values written 5e-05", async () => {
    const text = `\uFEFF${epssCsv('v2023.03.01', '2023-03-07T00:00:00+0000', [
      ['CVE-1999-0001', '5e-05', '0.00001'],
      ['CVE-2021-44228', '0.97565', '1.0'],
    ])}`.replaceAll('\n', '\r\n');
    const file = await read(text);
    expect(file.kind).toBe('epss');
    if (file.kind !== 'epss') return;
    expect(file.epss).toMatchObject({ modelVersion: 'v2023.03.01', scoreDate: '2023-03-07T00:00:00.000Z', rows: 2 });
    expect([...file.epss.keys].map(cveIdOfKey)).toEqual(['CVE-1999-0001', 'CVE-2021-44228']);
    expect([...file.epss.epss]).toEqual([5e-5, 0.97565]);
    expect([...file.epss.percentile]).toEqual([0.00001, 1]);
  });

  it('recognises a file by its content whatever it is called, gzip or plain, and gives the SHA-256 of the bytes as given', async () => {
    const plain = epssCsv('demo', '2026-06-01', [['CVE-2024-1000', '0.5', '0.5']]);
    const gzip = zlib.gzipSync(plain);
    const [fromPlain, fromGzip] = await Promise.all([read(plain), read(gzip)]);
    expect([fromPlain.kind, fromGzip.kind]).toEqual(['epss', 'epss']);
    expect(fromGzip.sha256).not.toBe(fromPlain.sha256);
    expect(fromGzip.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a CVE id with a leading zero, a line past its bound and a gzip bomb past the bound once unzipped', async () => {
    await expect(read(epssCsv('v1', '2026-06-01', [['CVE-2024-01000', '0.5', '0.5']]))).rejects.toThrow(/Line 3 of the EPSS file: CVE-2024-01000 is not a CVE id/);
    await expect(read(`#model_version:v1,score_date:2026-06-01\ncve,epss,percentile\n${'9'.repeat(300)}\n`)).rejects.toThrow(/Line 3 of the EPSS file is longer than 256 characters/);
    const bomb = zlib.gzipSync(Buffer.alloc(129 * 1024 * 1024, 0x20));
    await expect(read(bomb)).rejects.toThrow(/unzips to more than 128 MB/);
  });

  it('reads each score and percentile as the double Number reads from its text', async () => {
    const written = ['0', '1', '1.0', '0.5', '.5', '1.', '0.03351', '0.88255', '5e-05', '1.5E-7', '2.5e-1', '1e+0', '9.99999e-1', '0.1234567890123456789', '1e-300'];
    // And a thousand more, fixed and with exponents, from a generator of our own (the same every run).
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 1000; i++) written.push(i % 2 === 0 ? (next() ** 3).toFixed(1 + (i % 17)) : (next() ** 3).toExponential(i % 15));
    const file = await read(epssCsv('v1', '2026-06-01', written.map((value, i) => [`CVE-2024-${10_000 + i}`, value, value])));
    expect(file.kind === 'epss' && [...file.epss.epss]).toEqual(written.map(Number));
    expect(file.kind === 'epss' && [...file.epss.percentile]).toEqual(written.map(Number));
  });

  it('knows which row scores each CVE a file scores, in any row order, and names both lines of the first row that scores a CVE again', async () => {
    const rows: [string, string, string][] = [
      ['CVE-2024-9000', '0.5', '0.5'],
      ['CVE-1999-0001', '0.1', '0.1'],
      ['CVE-2024-1000', '0.2', '0.2'],
    ];
    const file = await read(epssCsv('v1', '2026-06-01', rows));
    if (file.kind !== 'epss') throw new Error(file.kind);
    for (const [index, [cve]] of rows.entries()) expect(rowScoring(file.epss, cveKey(cve)!), cve).toBe(index);
    for (const cve of ['CVE-1999-0002', 'CVE-2024-9001', 'CVE-2025-1000']) expect(rowScoring(file.epss, cveKey(cve)!), cve).toBe(-1);
    const twice = [...rows, ['CVE-2024-9001', '0.3', '0.3'], ['CVE-1999-0001', '0.4', '0.4'], ['CVE-2024-9000', '0.6', '0.6']] as [string, string, string][];
    await expect(read(epssCsv('v1', '2026-06-01', twice))).rejects.toThrow('Line 7 of the EPSS file: CVE-1999-0001 is scored twice (line 4 too).');
  });

  it('refuses a line of millions of characters in time linear in the file', async () => {
    const text = `${epssCsv('v1', '2026-06-01', [['CVE-2024-1000', '0.5', '0.5']])}CVE-2024-1001,${'1'.repeat(4_000_000)},0.5\n`;
    const started = performance.now();
    await expect(read(text)).rejects.toThrow(/Line 4 of the EPSS file is longer than/);
    // Encoding, hashing and decoding read the text a few times; a backtracking match would take the length times longer.
    expect(performance.now() - started).toBeLessThan(200 * scanMilliseconds(text) + 200);
  });

  it("reads ENISA's dates written 2026/08/17 and YYYY-MM-DD alike, and refuses a date not on the calendar", async () => {
    const file = await read(JSON.stringify({ vulnerabilities: [{ euvdID: 'EUVD-2026-1', dateReported: '2026/08/17' }, { euvdID: 'EUVD-2026-2', dateReported: '2026-08-18' }] }));
    expect(file.kind === 'eu-kev' && file.catalog.entries.map((entry) => entry.dateAdded)).toEqual(['2026-08-17', '2026-08-18']);
    expect(file.kind === 'eu-kev' && file.catalog.sourceDate).toBe('2026-08-18T00:00:00.000Z');
    await expect(read(JSON.stringify([{ euvdID: 'EUVD-2026-1', dateReported: '2026/02/29' }]))).rejects.toThrow(/\[0\]\.dateReported: "2026\/02\/29" is not a date/);
    await expect(read(JSON.stringify([{ euvdID: 'EUVD-2026-1', dateReported: '2026/08/17' }, { euvdID: 'EUVD-2026-1', dateReported: '2026/08/17' }]))).rejects.toThrow(
      /\[1\]\.euvdID EUVD-2026-1 is listed twice \(\[0\] too\)/,
    );
  });
});
