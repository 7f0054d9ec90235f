/**
 * The open findings a report's section counted, kept beside the report for the next one's
 * delta: one line a finding, `k` or `-` (KEV), `o` or `-` (overdue), then its id, in parts of
 * {@link findingsPerPart} so that each part is a short write and a short read.
 */
import { TimeSlices } from '../store/derived/time-slices.js';

/** Findings per part: a part's write or read holds the thread a few milliseconds. */
export const findingsPerPart = 4_000;

/**
 * The open findings of a section: every id, and which are KEV and overdue (both among them), each
 * list in its own order; with the index in `open` of each of `kev` and `overdue`, by which the
 * delta and the kept parts mark them without a set of a million ids.
 */
export interface SectionFindings {
  open: string[];
  kev: string[];
  overdue: string[];
  kevAt: Int32Array;
  overdueAt: Int32Array;
}

/** Slices with pauses for work that no write can make stale (ids already read, parts kept). */
export const reportSlices = () => new TimeSlices(() => undefined);

/** Ids handled between two looks at the clock: well under a slice's time. */
export const idsBetweenLooks = 4_096;

/** The ids of `open` at the indexes `at` names, in their order, with `slices`' pauses. */
export async function idsAt(open: readonly string[], at: Int32Array, slices: TimeSlices): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < at.length; i++) {
    ids.push(open[at[i]!]!);
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  return ids;
}

/** Per finding of `open` (by index), 1 for those `at` names. */
export function marks(count: number, at: Int32Array): Uint8Array {
  const marked = new Uint8Array(count);
  for (const index of at) marked[index] = 1;
  return marked;
}

/** A line's marks by `2 × KEV + overdue`. */
const lineMarks = ['--', '-o', 'k-', 'ko'];

/**
 * The parts of a section's findings, as the store keeps them. Each part is one string added to
 * line by line: an array of lines joined cost twice as much for 800,000 findings (0.7 s against
 * 0.4 s, its writing as UTF-8 included).
 */
export function* findingParts(findings: SectionFindings): Generator<string> {
  const isKev = marks(findings.open.length, findings.kevAt);
  const isOverdue = marks(findings.open.length, findings.overdueAt);
  // A part 0 even of no findings: it marks the section's organization, under which the report is listed (report-records.ts).
  for (let from = 0; from < findings.open.length || from === 0; from += findingsPerPart) {
    let part = '';
    for (let i = from; i < from + findingsPerPart && i < findings.open.length; i++) {
      part += `${i > from ? '\n' : ''}${lineMarks[isKev[i]! * 2 + isOverdue[i]!]}${findings.open[i]}`;
    }
    yield part;
  }
}

/** A section's findings read back from its parts, pausing between them; `kev` and `overdue` in the order of `open`. */
export async function readFindingParts(parts: Iterable<string>): Promise<SectionFindings> {
  const slices = reportSlices();
  const open: string[] = [];
  const kevAt: number[] = [];
  const overdueAt: number[] = [];
  for (const part of parts) {
    for (const line of part ? part.split('\n') : []) {
      if (line[0] === 'k') kevAt.push(open.length);
      if (line[1] === 'o') overdueAt.push(open.length);
      open.push(line.slice(2));
    }
    await slices.pause();
  }
  const kev = Int32Array.from(kevAt);
  const overdue = Int32Array.from(overdueAt);
  return { open, kev: await idsAt(open, kev, slices), overdue: await idsAt(open, overdue, slices), kevAt: kev, overdueAt: overdue };
}
