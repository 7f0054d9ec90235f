import { consoleHeaders } from '../api/console-fetch';
import { type SaveFileResult, desktopBridge } from '../desktop-bridge';

/** How saving a file of the console ended. */
export type SaveOutcome =
  /** `path` where the save dialog put it; `name`, the file a browser download was given. */
  { saved: true; path?: string; name?: string } | { saved: false; message?: string };

// A cancelled dialog is no error: it says nothing.
function saveOutcome(result: SaveFileResult): SaveOutcome {
  if (result.saved) return { saved: true, path: result.path };
  return { saved: false, message: result.reason === 'failed' ? result.message : undefined };
}

/** The desktop bridge's PDF printer of reports, or undefined where there is none (a browser: it prints with its own print). */
export function reportPdfSaver(): ((options: { path: string; suggestedName: string }) => Promise<SaveOutcome>) | undefined {
  const save = desktopBridge()?.saveReportPdf;
  if (!save) return undefined;
  return async ({ path, suggestedName }) => saveOutcome(await save({ suggestedName, source: { path } }));
}

/**
 * Saves a file the console's API serves under /app: through the desktop's native save dialog
 * when there is one (the main process fetches the bytes), else as a browser download, reading
 * the answer as it streams in so that `onProgress` can tell how far it got.
 */
export async function saveConsoleFile(options: {
  path: string;
  suggestedName: string;
  filter: { name: string; extensions: string[] };
  onProgress?: (bytes: number, text: string) => void;
  signal?: AbortSignal;
}): Promise<SaveOutcome> {
  const bridge = desktopBridge();
  if (bridge) {
    return saveOutcome(await bridge.saveFile({ suggestedName: options.suggestedName, filters: [options.filter], source: { path: options.path } }));
  }
  const response = await fetch(options.path, { headers: consoleHeaders(), signal: options.signal });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => undefined)) as { error?: string } | undefined;
    return { saved: false, message: body?.error ?? `The server answered ${response.status}` };
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    options.onProgress?.(bytes, decoder.decode(value, { stream: true }));
  }
  // The server names the file (Content-Disposition); the suggestion is for when it does not.
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? options.suggestedName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once click() returns; the URL is kept a moment for slow browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { saved: true, name: link.download };
}
