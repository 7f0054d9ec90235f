import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../../server/store/engine/data-directory.js';

const windowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean(),
});

/** The window's last normal bounds and whether it was maximized. */
export type WindowState = z.infer<typeof windowStateSchema>;

/**
 * How secrets are sealed where the system keychain is not available: `basic-text` is
 * safeStorage's plain-text backend, which the user explicitly agreed to; `key-file` is the
 * headless key-file sealer.
 */
export type SecretSealingChoice = 'basic-text' | 'key-file';

// The loopback port local tools are told to use (DESIGN section 4); when it is taken the server
// falls back to a free one, as `serve --port` does.
const portSchema = z.number().int().min(1).max(65535);

/**
 * What the desktop app remembers between runs, and the one thing a user may set by hand (`port`),
 * beside the database in the data directory.
 */
export interface DesktopSettings {
  window?: WindowState;
  secretSealing?: SecretSealingChoice;
  /** The port to serve on; 7300 when absent. */
  port?: number;
  /** Whether a sync that brings findings newly open critical or KEV shows a notification; yes when absent. */
  notifyOfNewFindings?: boolean;
}

const settingsFileName = 'desktop-settings.json';

/**
 * Reads the settings; a missing, unreadable or damaged file, or a damaged field, reads as
 * defaults: these are conveniences, not worth refusing to start over.
 */
export function readDesktopSettings(dataDir: string): DesktopSettings {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dataDir, settingsFileName), 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
  const window = windowStateSchema.safeParse(raw?.window);
  const secretSealing = z.enum(['basic-text', 'key-file']).safeParse(raw?.secretSealing);
  const port = portSchema.safeParse(raw?.port);
  const notifyOfNewFindings = z.boolean().safeParse(raw?.notifyOfNewFindings);
  return {
    ...(window.success && { window: window.data }),
    ...(secretSealing.success && { secretSealing: secretSealing.data }),
    ...(port.success && { port: port.data }),
    ...(notifyOfNewFindings.success && { notifyOfNewFindings: notifyOfNewFindings.data }),
  };
}

/** Changes some settings, keeping the others; written atomically so a crash never loses them all. */
export function updateDesktopSettings(dataDir: string, change: DesktopSettings): void {
  const settings = { ...readDesktopSettings(dataDir), ...change };
  writeFileAtomically(path.join(dataDir, settingsFileName), Buffer.from(`${JSON.stringify(settings, null, 2)}\n`));
}
