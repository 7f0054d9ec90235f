import { threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import { cveKey } from './cve-key.js';
import { IntelFileError, sourceDateTime } from './intel-file-error.js';

/** FIRST's EPSS daily CSV, read: the model and date of its comment line, and its rows as numbers. */
export interface EpssFile {
  modelVersion: string;
  /** `score_date` as an ISO date-time in UTC. */
  scoreDate: string;
  rows: number;
  /** Row by row: the CVE's key (cve-key.ts), its score and its percentile, each from 0 to 1. */
  keys: Float64Array;
  epss: Float64Array;
  percentile: Float64Array;
  /** The line of each CVE's row, by key: which CVEs the file scores. */
  lineOf: ReadonlyMap<number, number>;
}

/** Whether a file's text starts as FIRST's EPSS CSV does (the comment line, or the header where a copy dropped it). */
export function looksLikeEpss(text: string): boolean {
  return text.startsWith('#model_version:') || text.startsWith('cve,epss,percentile');
}

const header = 'cve,epss,percentile';
const modelVersionPattern = /^[A-Za-z0-9._+-]{1,64}$/;
/** A row: CVE id and two values, each bounded, so a test of a line is linear in its length. */
const rowPattern = /^(CVE-\d{4}-\d{4,9}),([^,]{1,32}),([^,]{1,32})$/;
/** A decimal as FIRST writes one: `0.03351`, `1.0`, `5e-05` (not `0x1`, ` 1` nor `Infinity`, which Number reads). */
const decimalPattern = /^(?:\d{1,20}(?:\.\d{0,20})?|\.\d{1,20})(?:[eE][+-]?\d{1,3})?$/;
const longestLine = 256;

/** A probability or percentile as written (`0.03351`, `5e-05`, `1.0`), or undefined when it is no number from 0 to 1. */
function unitValue(text: string): number | undefined {
  if (!decimalPattern.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}

/** The comment line's fields (`#model_version:v2026.06.15,score_date:2026-09-29T12:00:22Z`). */
function commentFields(line: string): { modelVersion: string; scoreDate: string } {
  if (line.length > longestLine) throw new IntelFileError(`Line 1 of the EPSS file is longer than ${longestLine} characters: not the comment line "#model_version:…,score_date:…".`);
  const fields = new Map<string, string>();
  for (const part of line.slice(1).split(',')) {
    const colon = part.indexOf(':');
    if (colon > 0) fields.set(part.slice(0, colon).trim(), part.slice(colon + 1).trim());
  }
  const modelVersion = fields.get('model_version');
  if (modelVersion === undefined || !modelVersionPattern.test(modelVersion)) {
    throw new IntelFileError('Line 1 of the EPSS file: model_version is missing or not 1 to 64 letters, digits, ".", "_", "+" or "-".');
  }
  const scoreDate = sourceDateTime(fields.get('score_date') ?? '');
  if (scoreDate === undefined) throw new IntelFileError('Line 1 of the EPSS file: score_date is missing or not a date (YYYY-MM-DD, with a time if any).');
  return { modelVersion, scoreDate };
}

/**
 * Reads FIRST's EPSS CSV whole, or refuses it naming the first line that is wrong: the comment
 * line with `model_version` and `score_date`, the header `cve,epss,percentile`, then one row per
 * CVE, each CVE once, scores and percentiles from 0 to 1 (`5e-05` accepted). A file without
 * its comment line is refused: scores of different models are not comparable, and a score
 * without its date means nothing. Calls `pause` every so many rows, which gives the event loop
 * a turn when the slice has run its time (TimeSlices), so that 400,000 rows hold the thread
 * that answers requests 20 ms at a time.
 */
export async function readEpssFile(text: string, pause: () => Promise<void>): Promise<EpssFile> {
  if (!text.startsWith('#model_version:')) {
    throw new IntelFileError('Line 1 of the EPSS file is not the comment line "#model_version:…,score_date:…" that FIRST\'s files start with: without it the scores have no model nor date.');
  }
  let end = text.indexOf('\n');
  if (end < 0) throw new IntelFileError('The EPSS file ends after line 1: it holds no header "cve,epss,percentile" (a truncated file?).');
  const { modelVersion, scoreDate } = commentFields(text.slice(0, end).replace(/\r$/, ''));
  let start = end + 1;
  end = text.indexOf('\n', start);
  const headerLine = text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
  if (headerLine !== header) throw new IntelFileError(`Line 2 of the EPSS file is not the header "${header}".`);
  let capacity = 1 << 16;
  let keys: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  let epss: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  let percentile: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  const seen = new Map<number, number>();
  let rows = 0;
  let lineNumber = 2;
  while (end >= 0 && end + 1 < text.length) {
    start = end + 1;
    end = text.indexOf('\n', start);
    lineNumber++;
    let line = text.slice(start, end < 0 ? text.length : end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length > longestLine) throw new IntelFileError(`Line ${lineNumber} of the EPSS file is longer than ${longestLine} characters: not a row "CVE-YYYY-NNNN,epss,percentile".`);
    const match = rowPattern.exec(line);
    if (!match) throw new IntelFileError(`Line ${lineNumber} of the EPSS file is not a row "CVE-YYYY-NNNN,epss,percentile" (a truncated or altered file?).`);
    const key = cveKey(match[1]!);
    if (key === undefined) throw new IntelFileError(`Line ${lineNumber} of the EPSS file: ${match[1]} is not a CVE id (its number has a leading zero).`);
    const score = unitValue(match[2]!);
    if (score === undefined) throw new IntelFileError(`Line ${lineNumber} of the EPSS file: epss "${match[2]}" is not a number from 0 to 1.`);
    const rank = unitValue(match[3]!);
    if (rank === undefined) throw new IntelFileError(`Line ${lineNumber} of the EPSS file: percentile "${match[3]}" is not a number from 0 to 1.`);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new IntelFileError(`Line ${lineNumber} of the EPSS file: ${match[1]} is scored twice (line ${earlier} too).`);
    if (rows === threatIntelFileBounds.epssRows) throw new IntelFileError(`Line ${lineNumber} of the EPSS file: it holds more than ${threatIntelFileBounds.epssRows} rows, the most an import takes.`);
    seen.set(key, lineNumber);
    if (rows === capacity) {
      capacity *= 2;
      keys = grown(keys, capacity);
      epss = grown(epss, capacity);
      percentile = grown(percentile, capacity);
    }
    keys[rows] = key;
    epss[rows] = score;
    percentile[rows] = rank;
    rows++;
    if ((rows & 4095) === 0) await pause();
  }
  if (rows === 0) throw new IntelFileError('The EPSS file holds no rows after its header (a truncated file?).');
  if (!text.endsWith('\n')) {
    // FIRST's files end with a newline: a last line without one may have been cut, and a cut row can still read as a valid one.
    throw new IntelFileError(`The EPSS file ends in the middle of line ${lineNumber}, without its newline: a truncated file?`);
  }
  return { modelVersion, scoreDate, rows, lineOf: seen, keys: keys.subarray(0, rows), epss: epss.subarray(0, rows), percentile: percentile.subarray(0, rows) };
}

function grown(values: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(capacity);
  larger.set(values);
  return larger;
}
