// `node --expose-gc --import tsx log-scan-heap-child.ts <folder>`: writes a log of 50,000 pages
// that are not adjacent (as a replacement's held pages are logged), scans it as a checkpoint and an
// open do, and prints the heap its frames keep, in bytes a frame.
import fs from 'node:fs';
import path from 'node:path';
import { ChangeLogWriter } from '../../store/engine/change-log.js';
import { scanLogFile, toEnd } from '../../store/engine/change-log-reader.js';

const collect = (globalThis as { gc?: () => void }).gc!;
const [pages, pageBytes] = [50_000, 512];
const log = path.join(process.argv[2]!, 'inventory.sqlite.log.1');
const writer = ChangeLogWriter.create(log, { sequence: 1, salt: '0123456789abcdef' });
const page = Buffer.alloc(pageBytes, 7);
for (let i = 0; i < pages; i++) writer.write(2 * i * pageBytes, page);
writer.commit();
writer.close();
collect();
const before = process.memoryUsage().heapUsed;
const fd = fs.openSync(log, 'r');
const { transactions } = toEnd(scanLogFile(fd));
fs.closeSync(fd);
collect();
const frames = transactions.reduce((sum, frames) => sum + frames.length, 0);
console.log(JSON.stringify({ frames, bytesPerFrame: (process.memoryUsage().heapUsed - before) / frames }));
