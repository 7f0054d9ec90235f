import { shell } from 'electron';
import { z } from 'zod';

/** The argument of `desktop:reveal-in-folder`. */
export const revealInFolderRequestSchema = z.string().min(1).max(4096);

/**
 * Shows a file in the system's file manager, only if this session saved it: the renderer cannot
 * use this to probe or open anything else on disk.
 */
export function revealInFolder(filePath: string, savedPaths: ReadonlySet<string>): void {
  if (!savedPaths.has(filePath)) throw new Error('Only a file saved in this session can be shown in its folder.');
  shell.showItemInFolder(filePath);
}
