import type { WorkPackage } from '../../contracts/console/work-packages.js';
import type { WorkPackageExportFormat } from '../../contracts/console/work-package-basics.js';
import { type ExportMeta, exportFormats } from './export-formats.js';
import { nextTurn } from '../store/engine/next-turn.js';

/** Work packages written per chunk: a few hundred kilobytes at most, then a turn of the event loop. */
const packagesPerChunk = 100;

/**
 * An export of work packages in `format`, a chunk at a time: the file is never one string, and
 * the server answers other requests between chunks. Uncapped: every package given is written.
 */
export async function* exportChunks(packages: readonly WorkPackage[], format: WorkPackageExportFormat, meta: ExportMeta): AsyncGenerator<string> {
  const writer = exportFormats[format];
  yield writer.begin(meta);
  for (let from = 0; from < packages.length; from += packagesPerChunk) {
    let text = '';
    const to = Math.min(packages.length, from + packagesPerChunk);
    for (let index = from; index < to; index++) text += writer.item(packages[index]!, index, meta);
    yield text;
    await nextTurn();
  }
  yield writer.end();
}

/** The file name of an export: `<org>-work-packages.<extension>`, or the one step's. */
export function exportFileName(organization: string, format: WorkPackageExportFormat, step?: string): string {
  return `${organization}-${step ?? 'work-packages'}.${exportFormats[format].extension}`;
}

/** The content type of an export in `format`. */
export const exportContentType = (format: WorkPackageExportFormat) => exportFormats[format].contentType;
