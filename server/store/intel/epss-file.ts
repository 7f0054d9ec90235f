import { threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import { orderByNumbers, rowNumbers } from '../derived/numeric-order.js';
import type { TimeSlices } from '../derived/time-slices.js';
import { cveIdOfKey } from './cve-key.js';
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
  /** The keys in ascending order: which CVEs the file scores ({@link scores}). */
  sortedKeys: Float64Array;
}

/** Whether a file's text starts as FIRST's EPSS CSV does (the comment line, or the header where a copy dropped it). */
export function looksLikeEpss(text: string): boolean {
  return text.startsWith('#model_version:') || text.startsWith('cve,epss,percentile');
}

const header = 'cve,epss,percentile';
const modelVersionPattern = /^[A-Za-z0-9._+-]{1,64}$/;
const longestLine = 256;
const notARow = 'is not a row "CVE-YYYY-NNNN,epss,percentile" (a truncated or altered file?).';

const zero = 48;
const nine = 57;
const isDigit = (code: number) => code >= zero && code <= nine;

/**
 * The end of a decimal as FIRST writes one (`0.03351`, `1.0`, `5e-05`; not `0x1`, ` 1` nor
 * `Infinity`, which Number reads) starting at `at`, or -1 when none ends exactly at `end`.
 */
function decimalEnd(text: string, at: number, end: number): number {
  const start = at;
  while (at < end && isDigit(text.charCodeAt(at))) at++;
  let digits = at - start;
  if (at < end && text.charCodeAt(at) === 46) {
    const fraction = ++at;
    while (at < end && isDigit(text.charCodeAt(at))) at++;
    digits += at - fraction;
  }
  if (digits === 0) return -1;
  const mark = text.charCodeAt(at);
  if (at < end && (mark === 101 || mark === 69)) {
    at++;
    if (at < end && (text.charCodeAt(at) === 43 || text.charCodeAt(at) === 45)) at++;
    const exponentStart = at;
    while (at < end && isDigit(text.charCodeAt(at))) at++;
    if (at === exponentStart || at - exponentStart > 3) return -1;
  }
  return at === end ? end : -1;
}

/** A probability or percentile in `text` from `from` to `to`, or undefined when it is no decimal from 0 to 1. */
function unitValue(text: string, from: number, to: number): number | undefined {
  if (to - from > 32 || decimalEnd(text, from, to) !== to) return undefined;
  const value = Number(text.slice(from, to));
  return value >= 0 && value <= 1 ? value : undefined;
}

/**
 * The key (cve-key.ts) of the CVE id that starts a row at `start`, with the index of the comma
 * after it; a message when the row does not start with one. Read character by character: a row
 * costs no regular expression nor string until it is refused.
 */
function rowCve(text: string, start: number, end: number): { key: number; comma: number } | string {
  if (!text.startsWith('CVE-', start) || end - start < 14) return notARow;
  let year = 0;
  for (let at = start + 4; at < start + 8; at++) {
    const code = text.charCodeAt(at);
    if (!isDigit(code)) return notARow;
    year = year * 10 + code - zero;
  }
  if (text.charCodeAt(start + 8) !== 45) return notARow;
  let number = 0;
  let at = start + 9;
  while (at < end && isDigit(text.charCodeAt(at))) number = number * 10 + text.charCodeAt(at++) - zero;
  const digits = at - start - 9;
  if (digits < 4 || digits > 9 || text.charCodeAt(at) !== 44) return notARow;
  if (digits > 4 && text.charCodeAt(start + 9) === zero) return `: ${text.slice(start, at)} is not a CVE id (its number has a leading zero).`;
  return { key: year * 1_000_000_000 + number, comma: at };
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
 * without its date means nothing. Reads in `slices`, so that 400,000 rows (parsed, then sorted
 * by a radix sort rather than one native sort of 40 ms) hold the thread that answers requests
 * 20 ms at a time.
 */
export async function readEpssFile(text: string, slices: TimeSlices): Promise<EpssFile> {
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
  let rows = 0;
  let lineNumber = 2;
  const refuse = (message: string) => {
    throw new IntelFileError(`Line ${lineNumber} of the EPSS file${message.startsWith(':') ? '' : ' '}${message}`);
  };
  while (end >= 0 && end + 1 < text.length) {
    start = end + 1;
    end = text.indexOf('\n', start);
    lineNumber++;
    let lineEnd = end < 0 ? text.length : end;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    if (lineEnd - start > longestLine) refuse(`is longer than ${longestLine} characters: not a row "CVE-YYYY-NNNN,epss,percentile".`);
    const cve = rowCve(text, start, lineEnd);
    if (typeof cve === 'string') return refuse(cve);
    const secondComma = text.indexOf(',', cve.comma + 1);
    if (secondComma < 0 || secondComma >= lineEnd) refuse(notARow);
    const score = unitValue(text, cve.comma + 1, secondComma);
    if (score === undefined) refuse(`: epss "${text.slice(cve.comma + 1, Math.min(secondComma, cve.comma + 33))}" is not a number from 0 to 1.`);
    const rank = unitValue(text, secondComma + 1, lineEnd);
    if (rank === undefined) refuse(`: percentile "${text.slice(secondComma + 1, Math.min(lineEnd, secondComma + 33))}" is not a number from 0 to 1.`);
    if (rows === threatIntelFileBounds.epssRows) refuse(`: it holds more than ${threatIntelFileBounds.epssRows} rows, the most an import takes.`);
    if (rows === capacity) {
      capacity *= 2;
      keys = grown(keys, capacity);
      epss = grown(epss, capacity);
      percentile = grown(percentile, capacity);
    }
    keys[rows] = cve.key;
    epss[rows] = score!;
    percentile[rows] = rank!;
    rows++;
    if ((rows & 4095) === 0) await slices.pause();
  }
  if (rows === 0) throw new IntelFileError('The EPSS file holds no rows after its header (a truncated file?).');
  if (!text.endsWith('\n')) {
    // FIRST's files end with a newline: a last line without one may have been cut, and a cut row can still read as a valid one.
    throw new IntelFileError(`The EPSS file ends in the middle of line ${lineNumber}, without its newline: a truncated file?`);
  }
  const read = keys.subarray(0, rows);
  const order = await orderByNumbers(rowNumbers(rows), read, slices);
  const sortedKeys = new Float64Array(rows);
  for (let index = 0; index < rows; index++) sortedKeys[index] = read[order[index]!]!;
  refuseRepeatedCve(sortedKeys, order);
  return { modelVersion, scoreDate, rows, sortedKeys, keys: keys.subarray(0, rows), epss: epss.subarray(0, rows), percentile: percentile.subarray(0, rows) };
}

/**
 * Refuses a file that scores a CVE twice, naming both lines: a repeated key sits beside itself
 * in the sorted keys, and the sort is stable, so `order` gives its first row, then its second.
 * Every line after the header is a row, so row `i` is line `i + 3`.
 */
function refuseRepeatedCve(sortedKeys: Float64Array, order: Int32Array): void {
  for (let index = 1; index < sortedKeys.length; index++) {
    if (sortedKeys[index] !== sortedKeys[index - 1]) continue;
    throw new IntelFileError(`Line ${order[index]! + 3} of the EPSS file: ${cveIdOfKey(sortedKeys[index]!)} is scored twice (line ${order[index - 1]! + 3} too).`);
  }
}

/** Whether a file scores the CVE of `key`: a binary search of its sorted keys. */
export function scores(file: EpssFile, key: number): boolean {
  const sorted = file.sortedKeys;
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = sorted[middle]!;
    if (value === key) return true;
    if (value < key) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function grown(values: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(capacity);
  larger.set(values);
  return larger;
}
