import { threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import type { TimeSlices } from '../derived/time-slices.js';
import { cveIdOfKey } from './cve-key.js';
import { CveKeyIndex } from './cve-key-index.js';
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
  /** Which CVEs the file scores ({@link scores}). */
  index: CveKeyIndex;
}

/** The bytes of `#model_version:` and of the header `cve,epss,percentile`, as a file starts with one or the other. */
const commentStart = new TextEncoder().encode('#model_version:');
const header = 'cve,epss,percentile';
const headerBytes = new TextEncoder().encode(header);
/** UTF-8's byte-order mark, which an editor may put first. */
const byteOrderMark = [0xef, 0xbb, 0xbf];

/** Whether `bytes` hold `prefix` at `at`. */
function holdsAt(bytes: Uint8Array, prefix: ArrayLike<number>, at: number): boolean {
  if (bytes.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Where the file's text starts: after a byte-order mark, if any. */
const textStart = (bytes: Uint8Array) => (holdsAt(bytes, byteOrderMark, 0) ? byteOrderMark.length : 0);

/** Whether a file starts as FIRST's EPSS CSV does (the comment line, or the header where a copy dropped it). */
export function looksLikeEpss(bytes: Uint8Array): boolean {
  const at = textStart(bytes);
  return holdsAt(bytes, commentStart, at) || holdsAt(bytes, headerBytes, at);
}

const modelVersionPattern = /^[A-Za-z0-9._+-]{1,64}$/;
const longestLine = 256;
const notARow = 'is not a row "CVE-YYYY-NNNN,epss,percentile" (a truncated or altered file?).';

const zero = 48;
const nine = 57;
const newline = 10;
const comma = 44;
const isDigit = (code: number) => code >= zero && code <= nine;

/** Some of the file's bytes as text, for a message (a byte that is not UTF-8 shows as U+FFFD). */
const textOf = (bytes: Uint8Array, from: number, to: number) => new TextDecoder().decode(bytes.subarray(from, to));

/** The powers of ten a double holds exactly: a decimal of at most 15 digits divided by one is correctly rounded. */
const exactPowersOfTen = Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));

/**
 * The decimal as FIRST writes one (`0.03351`, `1.0`, `5e-05`; not `0x1`, ` 1` nor `Infinity`)
 * in `bytes` from `from` to exactly `to`, or undefined when it is none. Its value is the
 * double nearest to it, as Number reads it, without making a string of it: its digits as an
 * integer times an exact power of ten (Clinger's fast path), or Number when it has too many.
 */
function decimalValue(bytes: Uint8Array, from: number, to: number): number | undefined {
  let at = from;
  let mantissa = 0;
  let fractionDigits = 0;
  while (at < to && isDigit(bytes[at]!)) mantissa = mantissa * 10 + bytes[at++]! - zero;
  let digits = at - from;
  if (at < to && bytes[at] === 46) {
    const fraction = ++at;
    while (at < to && isDigit(bytes[at]!)) mantissa = mantissa * 10 + bytes[at++]! - zero;
    fractionDigits = at - fraction;
    digits += fractionDigits;
  }
  if (digits === 0) return undefined;
  let exponent = 0;
  if (at < to && (bytes[at] === 101 || bytes[at] === 69)) {
    at++;
    const negative = bytes[at] === 45;
    if (at < to && (bytes[at] === 43 || bytes[at] === 45)) at++;
    const exponentStart = at;
    while (at < to && isDigit(bytes[at]!)) exponent = exponent * 10 + bytes[at++]! - zero;
    if (at === exponentStart || at - exponentStart > 3) return undefined;
    if (negative) exponent = -exponent;
  }
  if (at !== to) return undefined;
  const power = exponent - fractionDigits;
  if (mantissa <= Number.MAX_SAFE_INTEGER && Math.abs(power) < exactPowersOfTen.length) {
    return power < 0 ? mantissa / exactPowersOfTen[-power]! : mantissa * exactPowersOfTen[power]!;
  }
  return Number(textOf(bytes, from, to));
}

/** A probability or percentile in `bytes` from `from` to `to`, or undefined when it is no decimal from 0 to 1. */
function unitValue(bytes: Uint8Array, from: number, to: number): number | undefined {
  if (to - from > 32) return undefined;
  const value = decimalValue(bytes, from, to);
  return value !== undefined && value >= 0 && value <= 1 ? value : undefined;
}

/**
 * The key (cve-key.ts) of the CVE id that starts a row at `start`, or a message when the row
 * does not start with one; {@link RowCve.comma} is then the index of the comma after it. Read
 * byte by byte: a row costs no regular expression, string nor object until it is refused.
 */
class RowCve {
  comma = 0;

  read(bytes: Uint8Array, start: number, end: number): number | string {
    if (end - start < 14 || bytes[start] !== 67 || bytes[start + 1] !== 86 || bytes[start + 2] !== 69 || bytes[start + 3] !== 45) return notARow;
    let year = 0;
    for (let at = start + 4; at < start + 8; at++) {
      const code = bytes[at]!;
      if (!isDigit(code)) return notARow;
      year = year * 10 + code - zero;
    }
    if (bytes[start + 8] !== 45) return notARow;
    let number = 0;
    let at = start + 9;
    while (at < end && isDigit(bytes[at]!)) number = number * 10 + bytes[at++]! - zero;
    const digits = at - start - 9;
    if (digits < 4 || digits > 9 || bytes[at] !== comma) return notARow;
    if (digits > 4 && bytes[start + 9] === zero) return `: ${textOf(bytes, start, at)} is not a CVE id (its number has a leading zero).`;
    this.comma = at;
    return year * 1_000_000_000 + number;
  }
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

/** A line of the first two, as text without its carriage return; refused when it is not UTF-8. */
function firstLineText(bytes: Uint8Array, from: number, to: number): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(from, to)).replace(/\r$/, '');
  } catch {
    throw new IntelFileError('The EPSS file is not UTF-8 text (nor gzip of it).');
  }
}

/**
 * Reads FIRST's EPSS CSV whole, or refuses it naming the first line that is wrong: the comment
 * line with `model_version` and `score_date`, the header `cve,epss,percentile`, then one row per
 * CVE, each CVE once, scores and percentiles from 0 to 1 (`5e-05` accepted). A file without
 * its comment line is refused: scores of different models are not comparable, and a score
 * without its date means nothing. Read from its bytes, with no text of the whole file nor
 * string per value (an 11.6 MB file decoded to text, then 800,000 strings, were a block of
 * their own and most of the garbage an import left the thread answering requests to collect),
 * in `slices`, so that 400,000 rows hold that thread 20 ms at a time. Which CVEs it scores is
 * an index (CveKeyIndex), not a sort of its keys: one native sort of them took 40 ms alone.
 */
export async function readEpssFile(bytes: Uint8Array, slices: TimeSlices): Promise<EpssFile> {
  const first = textStart(bytes);
  if (!holdsAt(bytes, commentStart, first)) {
    throw new IntelFileError('Line 1 of the EPSS file is not the comment line "#model_version:…,score_date:…" that FIRST\'s files start with: without it the scores have no model nor date.');
  }
  let end = bytes.indexOf(newline, first);
  if (end < 0) throw new IntelFileError('The EPSS file ends after line 1: it holds no header "cve,epss,percentile" (a truncated file?).');
  const { modelVersion, scoreDate } = commentFields(firstLineText(bytes, first, end));
  let start = end + 1;
  end = bytes.indexOf(newline, start);
  const headerEnd = end < 0 ? bytes.length : end;
  if (headerEnd - start > longestLine || firstLineText(bytes, start, headerEnd) !== header) throw new IntelFileError(`Line 2 of the EPSS file is not the header "${header}".`);
  let capacity = 1 << 16;
  let keys: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  let epss: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  let percentile: Float64Array<ArrayBuffer> = new Float64Array(capacity);
  let rows = 0;
  let lineNumber = 2;
  const refuse = (message: string) => {
    throw new IntelFileError(`Line ${lineNumber} of the EPSS file${message.startsWith(':') ? '' : ' '}${message}`);
  };
  const cve = new RowCve();
  while (end >= 0 && end + 1 < bytes.length) {
    start = end + 1;
    end = bytes.indexOf(newline, start);
    lineNumber++;
    let lineEnd = end < 0 ? bytes.length : end;
    if (lineEnd > start && bytes[lineEnd - 1] === 13) lineEnd--;
    if (lineEnd - start > longestLine) refuse(`is longer than ${longestLine} characters: not a row "CVE-YYYY-NNNN,epss,percentile".`);
    const key = cve.read(bytes, start, lineEnd);
    if (typeof key === 'string') return refuse(key);
    const secondComma = bytes.indexOf(comma, cve.comma + 1);
    if (secondComma < 0 || secondComma >= lineEnd) refuse(notARow);
    const score = unitValue(bytes, cve.comma + 1, secondComma);
    if (score === undefined) refuse(`: epss "${textOf(bytes, cve.comma + 1, Math.min(secondComma, cve.comma + 33))}" is not a number from 0 to 1.`);
    const rank = unitValue(bytes, secondComma + 1, lineEnd);
    if (rank === undefined) refuse(`: percentile "${textOf(bytes, secondComma + 1, Math.min(lineEnd, secondComma + 33))}" is not a number from 0 to 1.`);
    if (rows === threatIntelFileBounds.epssRows) refuse(`: it holds more than ${threatIntelFileBounds.epssRows} rows, the most an import takes.`);
    if (rows === capacity) {
      capacity *= 2;
      keys = grown(keys, capacity);
      epss = grown(epss, capacity);
      percentile = grown(percentile, capacity);
    }
    keys[rows] = key;
    epss[rows] = score!;
    percentile[rows] = rank!;
    rows++;
    if ((rows & 4095) === 0) await slices.pause();
  }
  if (rows === 0) throw new IntelFileError('The EPSS file holds no rows after its header (a truncated file?).');
  if (bytes[bytes.length - 1] !== newline) {
    // FIRST's files end with a newline: a last line without one may have been cut, and a cut row can still read as a valid one.
    throw new IntelFileError(`The EPSS file ends in the middle of line ${lineNumber}, without its newline: a truncated file?`);
  }
  const read = keys.subarray(0, rows);
  return { modelVersion, scoreDate, rows, index: await indexRefusingRepeats(read, slices), keys: read, epss: epss.subarray(0, rows), percentile: percentile.subarray(0, rows) };
}

/**
 * The index of the file's keys, or a refusal naming the first row that scores a CVE again, and
 * the row that scored it first. Every line after the header is a row, so row `i` is line `i + 3`.
 */
async function indexRefusingRepeats(keys: Float64Array, slices: TimeSlices): Promise<CveKeyIndex> {
  const index = new CveKeyIndex(keys.length);
  for (let row = 0; row < keys.length; row++) {
    if ((row & 65535) === 0) await slices.pause();
    const first = index.add(keys[row]!, row);
    if (first >= 0) throw new IntelFileError(`Line ${row + 3} of the EPSS file: ${cveIdOfKey(keys[row]!)} is scored twice (line ${first + 3} too).`);
  }
  return index;
}

/** The row of a file that scores the CVE of `key`, or -1 when the file does not score it. */
export function rowScoring(file: EpssFile, key: number): number {
  return file.index.rowOf(key);
}

function grown(values: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(capacity);
  larger.set(values);
  return larger;
}
