import path from 'node:path';
import { type BrowserWindow, dialog } from 'electron';
import { z } from 'zod';
import { consoleTokenHeader } from '../../../server/http/app/require-console-token.js';
import { writeFileAtomically } from '../../../server/store/engine/data-directory.js';
import type { SaveFileRequest, SaveFileResult } from '../../../contracts/desktop/desktop-bridge.js';

const anyOrigin = 'http://console.invalid';

// Only the console's own API: the main process fetches with the console token, which opens
// /app and nothing else, and a path that resolves anywhere but /app/ (`/app/../v1`, `//host`)
// is refused before any request is made.
function isConsoleAppPath(value: string): boolean {
  if (!value.startsWith('/app/')) return false;
  const url = new URL(value, anyOrigin);
  return url.origin === anyOrigin && url.pathname.startsWith('/app/');
}

/** A bare file name the save dialog suggests: never a path. */
export const suggestedNameSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^/\\\0]+$/, 'must be a file name, not a path')
  .refine((name) => name !== '.' && name !== '..', 'must be a file name');

/** A console-relative path of the console API under /app/, which the main process fetches with the console token. */
export const consoleAppPathSchema = z.string().max(4096).refine(isConsoleAppPath, 'must be a path of the console API under /app/');

/** The argument of `desktop:save-file`, checked before anything is done with it. */
export const saveFileRequestSchema = z.strictObject({
  suggestedName: suggestedNameSchema,
  filters: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(100),
        extensions: z.array(z.string().regex(/^(\*|[A-Za-z0-9]{1,16})$/, 'must be an extension without the dot')).min(1).max(10),
      }),
    )
    .max(10)
    .optional(),
  source: z.strictObject({ path: consoleAppPathSchema }),
}) satisfies z.ZodType<SaveFileRequest>;

/** Where and how the main process reaches its own server, and what the session has saved. */
export interface SaveFileContext {
  /** The server's base URL, e.g. `http://127.0.0.1:7300`. */
  serverUrl: string;
  consoleToken: string;
  /** The window the dialog belongs to. */
  window: BrowserWindow | undefined;
  /** The folder the dialog opens in. */
  defaultFolder: string;
  /** Files saved in this session; the only ones `revealInFolder` shows. */
  savedPaths: Set<string>;
}

/**
 * Saves a file of the console: fetches the bytes from the local server first (so an error, such
 * as an organization without an enrollment secret, is told before the user picks a place), then
 * asks where with the native save dialog and writes exactly those bytes there.
 */
export async function saveFile(request: SaveFileRequest, context: SaveFileContext): Promise<SaveFileResult> {
  let bytes: Buffer;
  try {
    bytes = await fetchFromConsole(request.source.path, context);
  } catch (error) {
    return { saved: false, reason: 'failed', message: (error as Error).message };
  }
  return saveThroughDialog(bytes, { suggestedName: request.suggestedName, filters: request.filters ?? [] }, context);
}

/**
 * Asks where to save with the native save dialog, then writes exactly `bytes` there atomically
 * (a crash leaves the old file or the new one, never half of it).
 */
export async function saveThroughDialog(
  bytes: Buffer,
  offer: { suggestedName: string; filters: Electron.FileFilter[] },
  context: SaveFileContext,
): Promise<SaveFileResult> {
  const options: Electron.SaveDialogOptions = {
    defaultPath: path.join(context.defaultFolder, offer.suggestedName),
    filters: offer.filters,
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
  const choice = context.window ? await dialog.showSaveDialog(context.window, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false, reason: 'cancelled' };
  try {
    writeFileAtomically(choice.filePath, bytes);
  } catch (error) {
    return { saved: false, reason: 'failed', message: `Could not write ${choice.filePath}: ${(error as Error).message}` };
  }
  context.savedPaths.add(choice.filePath);
  return { saved: true, path: choice.filePath };
}

/** The bytes the console's server answers at `sourcePath`, fetched with the console token; its error message when it refuses. */
export async function fetchFromConsole(sourcePath: string, context: SaveFileContext): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(new URL(sourcePath, context.serverUrl), {
      headers: { [consoleTokenHeader]: context.consoleToken },
      redirect: 'error',
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    throw new Error(`Could not reach the console's server: ${cause?.message ?? (error as Error).message}`, { cause: error });
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(errorMessage(bytes) ?? `The console's server answered ${response.status} ${response.statusText}`);
  return bytes;
}

// Every error of the server is `{"error": "..."}` (DESIGN section 3).
function errorMessage(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}
