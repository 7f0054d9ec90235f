import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type ThreatIntelKind, threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import type { TimeSlices } from '../derived/time-slices.js';
import { type EpssFile, looksLikeEpss, readEpssFile } from './epss-file.js';
import { IntelFileError } from './intel-file-error.js';
import { type KevCatalog, kevSourceOf, readCisaCatalog, readEuCatalog } from './kev-catalog.js';
import { type ArchiveEntry, isTar, isZip, tarEntries, zipEntries } from './intel-archive.js';
import { type VulnrichmentFile, isCveRecordJson, isCveRecordName, readVulnrichment } from './vulnrichment-file.js';

const gunzip = promisify(zlib.gunzip);

/** An intelligence file read whole and found valid, with the SHA-256 of its bytes as given. */
export type IntelFile = { sha256: string } & (
  | { kind: 'epss'; epss: EpssFile }
  | { kind: 'vulnrichment'; vulnrichment: VulnrichmentFile }
  | { kind: Exclude<ThreatIntelKind, 'epss' | 'vulnrichment'>; catalog: KevCatalog }
);

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** The file's bytes: unzipped in the thread pool when it is gzip (by its magic bytes, not its name). */
async function plainBytes(bytes: Uint8Array): Promise<Uint8Array> {
  let plain = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      plain = await gunzip(bytes, { maxOutputLength: threatIntelFileBounds.plainBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new IntelFileError(`The gzip file unzips to more than ${megabytes(threatIntelFileBounds.plainBytes)}, the most an import takes.`);
      }
      throw new IntelFileError(`The gzip file could not be unzipped: it is truncated or damaged (${(error as Error).message}).`);
    }
  }
  if (plain.byteLength > threatIntelFileBounds.plainBytes) throw new IntelFileError(`The file holds more than ${megabytes(threatIntelFileBounds.plainBytes)}, the most an import takes.`);
  return plain;
}

/** The file's bytes as UTF-8 text (a KEV catalog's JSON). */
function utf8Text(plain: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(plain);
  } catch {
    throw new IntelFileError('The file is not UTF-8 text (nor gzip of it): neither an EPSS CSV nor a KEV catalog in JSON.');
  }
}

function parsedJson(text: string, name = 'The file'): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new IntelFileError(`${name} starts as JSON but is not JSON (a truncated file?): ${(error as Error).message}.`);
  }
}

/** The CVE records of an archive's files (`wanted` by name), each parsed, read as Vulnrichment records. */
async function archiveRecords(entries: ArchiveEntry[], what: string, pause: () => Promise<void>): Promise<VulnrichmentFile> {
  if (entries.length === 0) throw new IntelFileError(`The ${what} holds no CVE record (a file named CVE-YYYY-NNNN.json): no Vulnrichment records to import.`);
  const documents = [];
  for (const [index, entry] of entries.entries()) {
    if (index % 1_000 === 999) await pause();
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(entry.bytes);
    } catch {
      throw new IntelFileError(`The ${what}'s ${entry.name} is not UTF-8 text.`);
    }
    documents.push({ name: entry.name, json: parsedJson(text, `The ${what}'s ${entry.name}`) });
  }
  return readVulnrichment(documents);
}

/**
 * Reads an intelligence file, gzip or plain, recognising its kind by its content: FIRST's EPSS
 * CSV by its first line, a KEV catalog by its JSON fields (CISA's `catalogVersion`, ENISA's
 * `euvdID`). Refuses (IntelFileError) a file past the bounds, malformed, truncated or of no
 * known kind, naming the line or field. A long file is read in `slices` (see readEpssFile).
 */
export async function readIntelFile(bytes: Uint8Array, slices: TimeSlices): Promise<IntelFile> {
  if (bytes.byteLength === 0) throw new IntelFileError('The file is empty.');
  if (bytes.byteLength > threatIntelFileBounds.fileBytes) throw new IntelFileError(`The file is larger than ${megabytes(threatIntelFileBounds.fileBytes)}, the most an import takes.`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (isZip(bytes)) return { sha256, kind: 'vulnrichment', vulnrichment: await archiveRecords(zipEntries(bytes, isCveRecordName), 'zip archive', () => slices.pause()) };
  const plain = await plainBytes(bytes);
  if (isTar(plain)) return { sha256, kind: 'vulnrichment', vulnrichment: await archiveRecords(tarEntries(plain, isCveRecordName), 'tar archive', () => slices.pause()) };
  // An EPSS file is read from its bytes; a catalog or a CVE record is JSON text.
  if (looksLikeEpss(plain)) return { sha256, kind: 'epss', epss: await readEpssFile(plain, slices) };
  const text = utf8Text(plain);
  if (/^\s*[[{]/.test(text.slice(0, 64))) {
    const document = parsedJson(text);
    if (isCveRecordJson(document)) return { sha256, kind: 'vulnrichment', vulnrichment: readVulnrichment([{ name: 'the file', json: document }]) };
    const source = kevSourceOf(document);
    if (source === 'cisa') return { sha256, kind: 'cisa-kev', catalog: readCisaCatalog(document) };
    if (source === 'eu') return { sha256, kind: 'eu-kev', catalog: readEuCatalog(document) };
    throw new IntelFileError(
      'The JSON file is no KEV catalog nor Vulnrichment record: CISA\'s catalog has "catalogVersion" and "vulnerabilities", ENISA\'s lists entries with "euvdID", a CVE record has "dataType": "CVE_RECORD".',
    );
  }
  throw new IntelFileError(
    'The file is of no kind an import knows: FIRST\'s EPSS CSV starts with "#model_version:", a KEV catalog (CISA\'s or ENISA\'s) and a Vulnrichment record are JSON, Vulnrichment\'s folders come as .zip or .tar.gz.',
  );
}
