import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';
import { threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import { IntelFileError } from './intel-file-error.js';

/** One file of an archive: its path inside it, and its bytes. */
export interface ArchiveEntry {
  name: string;
  bytes: Uint8Array;
}

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** Whether the bytes are a zip archive, by its local file header's magic bytes. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Whether the bytes are a tar archive (POSIX ustar or GNU), by the magic of its first header. */
export function isTar(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 512 && new TextDecoder().decode(bytes.subarray(257, 262)) === 'ustar';
}

/**
 * fflate, loaded by the first zip archive: its module took about 75 ms to load, which every
 * command that opens a store paid, and few of them read an archive.
 */
let fflate: typeof Fflate | undefined;
const unzipSync: typeof Fflate.unzipSync = (data, options) => (fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate).unzipSync(data, options);

/**
 * The files of a zip archive whose names `wanted` keeps, unzipped by fflate. The archive is
 * untrusted: its entries are counted and their sizes, as its directory states them, summed
 * before anything is inflated; past the bounds, refused.
 */
export function zipEntries(bytes: Uint8Array, wanted: (name: string) => boolean): ArchiveEntry[] {
  let entries = 0;
  let plain = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (++entries > threatIntelFileBounds.archiveEntries) throw new IntelFileError(`The zip archive holds more than ${threatIntelFileBounds.archiveEntries} files, the most an import takes.`);
        if (!wanted(file.name)) return false;
        plain += file.originalSize;
        if (file.originalSize > threatIntelFileBounds.recordBytes) throw new IntelFileError(`The zip archive's ${file.name} is larger than ${megabytes(threatIntelFileBounds.recordBytes)}, the most a record may be.`);
        if (plain > threatIntelFileBounds.plainBytes) throw new IntelFileError(`The zip archive unzips to more than ${megabytes(threatIntelFileBounds.plainBytes)}, the most an import takes.`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof IntelFileError) throw error;
    throw new IntelFileError(`The zip archive could not be read: it is truncated or damaged (${(error as Error).message}).`);
  }
  return Object.entries(files)
    .map(([name, content]) => ({ name, bytes: content }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/\0.*$/s, '');

/**
 * The regular files of a tar archive (unzipped already) whose names `wanted` keeps: POSIX ustar
 * headers with their prefix, GNU long names, pax headers skipped. Refused, naming the offset,
 * when a header is damaged or a file runs past the end.
 */
export function tarEntries(bytes: Uint8Array, wanted: (name: string) => boolean): ArchiveEntry[] {
  const found: ArchiveEntry[] = [];
  let longName: string | undefined;
  let entries = 0;
  for (let offset = 0; offset + 512 <= bytes.byteLength; ) {
    const header = bytes.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const sizeText = text(header.subarray(124, 136)).trim();
    if (!/^[0-7]{1,12}$/.test(sizeText)) throw new IntelFileError(`The tar archive is damaged: the header at byte ${offset} has no size.`);
    const size = Number.parseInt(sizeText, 8);
    const start = offset + 512;
    if (start + size > bytes.byteLength) throw new IntelFileError(`The tar archive is truncated: the file at byte ${offset} runs past its end.`);
    if (++entries > threatIntelFileBounds.archiveEntries) throw new IntelFileError(`The tar archive holds more than ${threatIntelFileBounds.archiveEntries} files, the most an import takes.`);
    const type = String.fromCharCode(header[156]!);
    const prefix = text(header.subarray(345, 500));
    const name = longName ?? (prefix ? `${prefix}/${text(header.subarray(0, 100))}` : text(header.subarray(0, 100)));
    longName = undefined;
    if (type === 'L') longName = text(bytes.subarray(start, start + size));
    else if ((type === '0' || type === '\0') && wanted(name)) {
      if (size > threatIntelFileBounds.recordBytes) throw new IntelFileError(`The tar archive's ${name} is larger than ${megabytes(threatIntelFileBounds.recordBytes)}, the most a record may be.`);
      found.push({ name, bytes: bytes.subarray(start, start + size) });
    }
    offset = start + Math.ceil(size / 512) * 512;
  }
  return found;
}
