import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type ThreatIntelKind, threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import type { TimeSlices } from '../derived/time-slices.js';
import { type EpssFile, looksLikeEpss, readEpssFile } from './epss-file.js';
import { IntelFileError } from './intel-file-error.js';
import { type KevCatalog, kevSourceOf, readCisaCatalog, readEuCatalog } from './kev-catalog.js';

const gunzip = promisify(zlib.gunzip);

/** An intelligence file read whole and found valid, with the SHA-256 of its bytes as given. */
export type IntelFile = { sha256: string } & ({ kind: 'epss'; epss: EpssFile } | { kind: Exclude<ThreatIntelKind, 'epss'>; catalog: KevCatalog });

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

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new IntelFileError(`The file starts as JSON but is not JSON (a truncated file?): ${(error as Error).message}.`);
  }
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
  const plain = await plainBytes(bytes);
  // An EPSS file is read from its bytes; a catalog is JSON text.
  if (looksLikeEpss(plain)) return { sha256, kind: 'epss', epss: await readEpssFile(plain, slices) };
  const text = utf8Text(plain);
  if (/^\s*[[{]/.test(text.slice(0, 64))) {
    const document = parsedJson(text);
    const source = kevSourceOf(document);
    if (source === 'cisa') return { sha256, kind: 'cisa-kev', catalog: readCisaCatalog(document) };
    if (source === 'eu') return { sha256, kind: 'eu-kev', catalog: readEuCatalog(document) };
    throw new IntelFileError('The JSON file is no KEV catalog: CISA\'s has "catalogVersion" and "vulnerabilities", ENISA\'s lists entries with "euvdID".');
  }
  throw new IntelFileError('The file is of no kind an import knows: FIRST\'s EPSS CSV starts with "#model_version:", a KEV catalog (CISA\'s or ENISA\'s) is JSON.');
}
