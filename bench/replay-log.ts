import fs from 'node:fs';
import path from 'node:path';
import { ChangeLogWriter, logFile, logFiles } from '../server/store/engine/change-log.js';
import { checkpointThresholdBytes } from '../server/store/engine/durable-file.js';

/**
 * Leaves beside a closed data directory's database a change log as large as the checkpoint
 * threshold (a quarter of the file on `large`): the most an open replays after a crash, since
 * a checkpoint starts past it. Its transactions rewrite pages spread over the whole file with
 * the bytes they hold, so that replaying it costs what a real one does (reading it, checking
 * it, copying each page into place) and changes nothing. Returns the log's size in bytes.
 */
export function leaveReplayLog(dataDir: string): number {
  const databaseFile = path.join(dataDir, 'inventory.sqlite');
  if (logFiles(databaseFile).length > 0) throw new Error(`${dataDir} already has change logs: close its store first`);
  const fd = fs.openSync(databaseFile, 'r');
  try {
    const fileBytes = fs.fstatSync(fd).size;
    const header = Buffer.alloc(100);
    fs.readSync(fd, header, 0, 100, 0);
    const pageBytes = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
    const pages = Math.floor(fileBytes / pageBytes);
    const logged = Math.min(pages, Math.floor(checkpointThresholdBytes(fileBytes) / pageBytes));
    const writer = ChangeLogWriter.create(logFile(databaseFile, 1));
    const page = Buffer.alloc(pageBytes);
    for (let i = 0; i < logged; i++) {
      const offset = Math.floor((i * pages) / logged) * pageBytes;
      fs.readSync(fd, page, 0, pageBytes, offset);
      writer.write(offset, page);
      // Transactions of a few hundred pages, as a sync's or a bulk write's.
      if (i % 256 === 255) writer.commit({ durable: false });
    }
    writer.commit();
    writer.close();
    return fs.statSync(writer.file).size;
  } finally {
    fs.closeSync(fd);
  }
}
