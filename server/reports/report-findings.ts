/**
 * The open findings a report's section counted, kept beside the report for the next one's
 * delta: one line a finding, `k` or `-` (KEV), `o` or `-` (overdue), then its id, in parts of
 * {@link findingsPerPart} so that each part is a short write and a short read.
 */

/** Findings per part: a part's write or read holds the thread a few milliseconds. */
export const findingsPerPart = 8_000;

/** The open findings of a section: every id, and which are KEV and overdue (both among them). */
export interface SectionFindings {
  open: string[];
  kev: string[];
  overdue: string[];
}

/** Lets other work run between two parts. */
export const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The parts of a section's findings, as the store keeps them. */
export function* findingParts(findings: SectionFindings): Generator<string> {
  const kev = new Set(findings.kev);
  const overdue = new Set(findings.overdue);
  for (let from = 0; from < findings.open.length || from === 0; from += findingsPerPart) {
    yield findings.open
      .slice(from, from + findingsPerPart)
      .map((id) => `${kev.has(id) ? 'k' : '-'}${overdue.has(id) ? 'o' : '-'}${id}`)
      .join('\n');
  }
}

/** A section's findings read back from its parts, pausing between them. */
export async function readFindingParts(parts: Iterable<string>): Promise<SectionFindings> {
  const findings: SectionFindings = { open: [], kev: [], overdue: [] };
  for (const part of parts) {
    for (const line of part ? part.split('\n') : []) {
      const id = line.slice(2);
      findings.open.push(id);
      if (line[0] === 'k') findings.kev.push(id);
      if (line[1] === 'o') findings.overdue.push(id);
    }
    await pause();
  }
  return findings;
}
