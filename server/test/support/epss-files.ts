import path from 'node:path';

/** The shared CISA KEV snapshot (catalog 2025.08.25, 1,404 entries) and its schema: read from `../shared`, never copied into the repository. */
export const sharedKevDir = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'intel', 'kev');

/** A row of an EPSS file: CVE id, score, percentile, as the file writes them. */
export type EpssRow = [cve: string, epss: string, percentile: string];

/** An EPSS file in FIRST's CSV format: its comment line, header and rows. */
export function epssCsv(model: string, scoreDate: string, rows: readonly EpssRow[]): string {
  return `#model_version:${model},score_date:${scoreDate}\ncve,epss,percentile\n${rows.map((row) => row.join(',')).join('\n')}\n`;
}

/** A deterministic score from 0 to 1 of row `index` for `seed`; one row in 97 has FIRST's floor, written as FIRST writes it: `5e-05`. */
export function generatedScore(index: number, seed: number): string {
  if (index % 97 === 96) return '5e-05';
  return ((((index + 1) * 2_654_435_761 + seed * 40_503) % 1_000_003) / 1_000_003).toFixed(5);
}

/**
 * `count` generated rows: first `cves` (the CVEs a test's inventory names), then made-up CVE
 * ids that no inventory names, as FIRST's file scores far more CVEs than a fleet has.
 */
export function generatedEpssRows(cves: readonly string[], count: number, seed: number): EpssRow[] {
  const rows: EpssRow[] = [];
  for (let index = 0; index < count; index++) {
    const cve = index < cves.length ? cves[index]! : `CVE-${2000 + (index % 26)}-${10_000 + Math.floor(index / 26)}`;
    rows.push([cve, generatedScore(index, seed), ((index % 1000) / 1000).toFixed(5)]);
  }
  return rows;
}
