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

/** Ids handled between two pauses when a set is built or filtered: a few milliseconds' work. */
const idsPerSlice = 20_000;

/** The set of `ids`, built with pauses: a million ids at once would hold the thread. */
export async function idSet(ids: readonly string[]): Promise<Set<string>> {
  const set = new Set<string>();
  for (let from = 0; from < ids.length; from += idsPerSlice) {
    for (const id of ids.slice(from, from + idsPerSlice)) set.add(id);
    await pause();
  }
  return set;
}

/** The ids of `ids` that `set` does not hold, in order, with pauses. */
export async function idsNotIn(ids: readonly string[], set: ReadonlySet<string>): Promise<string[]> {
  const left: string[] = [];
  for (let from = 0; from < ids.length; from += idsPerSlice) {
    for (const id of ids.slice(from, from + idsPerSlice)) if (!set.has(id)) left.push(id);
    await pause();
  }
  return left;
}

/** The parts of a section's findings, as the store keeps them; `kev` and `overdue` are the sets of those lists. */
export function* findingParts(findings: SectionFindings, kev: ReadonlySet<string>, overdue: ReadonlySet<string>): Generator<string> {
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
