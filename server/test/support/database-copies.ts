import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Database files in folders of their own for the engine's tests: `newDatabaseFile` makes one,
 * `crashCopy` copies a database's files as a crash now would leave them, `removeAll` cleans up
 * (call it after each test).
 */
export function databaseCopies(prefix: string) {
  const folders: string[] = [];
  const newDatabaseFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(dir);
    return path.join(dir, 'inventory.sqlite');
  };
  const crashCopy = (file: string) => {
    const copy = newDatabaseFile();
    for (const name of fs.readdirSync(path.dirname(file))) fs.copyFileSync(path.join(path.dirname(file), name), path.join(path.dirname(copy), name));
    return copy;
  };
  const removeAll = () => {
    for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  };
  return { newDatabaseFile, crashCopy, removeAll };
}
