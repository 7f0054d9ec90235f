import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFrames, ChangeLogWriter, extentAfter, type LogFrame } from './change-log.js';
import { parseLog, scanLogFile, toEnd } from './change-log-reader.js';
import { checkpointSteps, runCheckpoint } from './checkpoint.js';
import { planCheckpoint } from './checkpoint-plan.js';
import type { FileWriteSink } from './file-write-tap.js';
import { DurableFile } from './durable-file.js';
import { HeldPages } from './held-pages.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const salt = '0123456789abcdef';
const newFolder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-checkpoint-'));
  folders.push(dir);
  return dir;
};

/**
 * A seeded generator of SQLite-like file changes: whole pages, runs of adjacent pages (held
 * pages handed on), sometimes a truncation, now and then an odd write.
 */
function changes(seed: number, { odd }: { odd: boolean }) {
  let state = seed;
  const next = (below: number) => {
    state = (state * 1103515245 + 12345) >>> 0;
    return (state >>> 8) % below;
  };
  const page = 512;
  return (count: number): LogFrame[] =>
    Array.from({ length: count }, (): LogFrame => {
      const roll = next(100);
      if (roll < 6) return { kind: 'truncate', size: next(40) * page };
      if (odd && roll < 12) return { kind: 'write', offset: next(40 * page), bytes: Buffer.alloc(1 + next(700), next(256)) };
      if (roll < 30) return { kind: 'write', offset: next(44) * page, bytes: Buffer.from(Array.from({ length: (2 + next(4)) * page }, () => next(256))) };
      return { kind: 'write', offset: next(48) * page, bytes: Buffer.alloc(page, next(256)) };
    });
}

/** The bytes of `snapshot` with `frames` applied one after another, as a replay makes them. */
function replayed(snapshot: Uint8Array, frames: LogFrame[]): Buffer {
  const image = new Uint8Array(Math.max(snapshot.length, extentAfter(snapshot.length, frames).largest));
  image.set(snapshot);
  return Buffer.from(image.subarray(0, applyFrames(image, snapshot.length, frames)));
}

describe('a checkpoint', () => {
  for (const odd of [false, true]) {
    it(`leaves the snapshot as replaying its logs would, each page written once${odd ? ', with odd writes among the pages' : ''}`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const folder = newFolder();
        const databaseFile = path.join(folder, 'inventory.sqlite');
        const snapshot = Buffer.alloc(20 * 512, seed);
        fs.writeFileSync(databaseFile, snapshot);
        const next = changes(seed, { odd });
        const logs = [1, 2, 3].map((number) => path.join(folder, `inventory.sqlite.log.${number}`));
        const frames: LogFrame[] = [];
        for (const [i, log] of logs.entries()) {
          const writer = ChangeLogWriter.create(log, { sequence: i + 1, salt });
          for (let transaction = 0; transaction < 4; transaction++) {
            for (const frame of next(15)) {
              if (frame.kind === 'write') writer.write(frame.offset, frame.bytes);
              else writer.truncate(frame.size);
              frames.push(frame);
            }
            writer.commit({ durable: transaction % 2 === 0 });
          }
          writer.close();
        }
        // Read back through the log's own parser, so that the frames compared are the ones it holds.
        expect(logs.flatMap((log) => parseLog(fs.readFileSync(log)).transactions.flat())).toHaveLength(frames.length);
        if (!odd) {
          const opened = logs.map((log) => fs.openSync(log, 'r'));
          const plan = toEnd(planCheckpoint(opened.map((fd) => ({ fd, transactions: toEnd(scanLogFile(fd)).transactions }))));
          for (const fd of opened) fs.closeSync(fd);
          // Each page once: the planned writes (runs of adjacent pages) never overlap, and cover fewer pages than were logged.
          const pagesWritten = plan.flatMap((operation) =>
            operation.kind === 'write' ? Array.from({ length: operation.frame.length / 512 }, (_, i) => operation.frame.offset + i * 512) : [],
          );
          const pagesLogged = frames.reduce((sum, frame) => sum + (frame.kind === 'write' ? frame.bytes.length / 512 : 0), 0);
          expect(new Set(pagesWritten).size).toBe(pagesWritten.length);
          expect(pagesWritten.length).toBeLessThan(pagesLogged / 2);
        }
        runCheckpoint(checkpointSteps(databaseFile, logs.map((file, i) => ({ file, sequence: i + 1 })), salt));
        expect(fs.readFileSync(databaseFile).equals(replayed(snapshot, frames)), `seed ${seed}`).toBe(true);
        expect(logs.filter((log) => fs.existsSync(log))).toEqual([]);
      }
    });
  }

  it('is completed by the next checkpoint when it stopped before its fsync or before removing its log', () => {
    const folder = newFolder();
    const databaseFile = path.join(folder, 'inventory.sqlite');
    const snapshot = Buffer.alloc(20 * 512, 3);
    const log = path.join(folder, 'inventory.sqlite.log.1');
    const writer = ChangeLogWriter.create(log, { sequence: 1, salt });
    const frames = changes(5, { odd: false })(3000);
    for (const frame of frames) {
      if (frame.kind === 'write') writer.write(frame.offset, frame.bytes);
      else writer.truncate(frame.size);
    }
    writer.commit();
    writer.close();
    const logBytes = fs.readFileSync(log);
    for (let stopAfter = 0; stopAfter < 3; stopAfter++) {
      fs.writeFileSync(databaseFile, snapshot);
      fs.writeFileSync(log, logBytes);
      const steps = checkpointSteps(databaseFile, [{ file: log, sequence: 1 }], salt);
      for (let step = 0; step < stopAfter; step++) steps.next();
      steps.return();
      runCheckpoint(checkpointSteps(databaseFile, [{ file: log, sequence: 1 }], salt));
      expect(fs.readFileSync(databaseFile).equals(replayed(snapshot, frames)), `stopped after ${stopAfter}`).toBe(true);
    }
  });
});

describe('held pages', () => {
  it('hand on what makes the same file as the writes themselves, each whole page once', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const handedOn: LogFrame[] = [];
      const sink: FileWriteSink = {
        write: (offset, bytes) => handedOn.push({ kind: 'write', offset, bytes: Buffer.from(bytes) }),
        truncate: (size) => handedOn.push({ kind: 'truncate', size }),
      };
      // The in-memory file the held pages are read from, kept as the writes make it.
      let file: Buffer = Buffer.alloc(4096, 1);
      const held = new HeldPages(sink, (offset, into) => into.set(file.subarray(offset, offset + into.length)));
      const frames = changes(seed, { odd: seed % 2 === 0 })(200);
      for (const [i, frame] of frames.entries()) {
        file = replayed(file, [frame]);
        if (frame.kind === 'write') held.write(frame.offset, frame.bytes);
        else held.truncate(frame.size);
        if (i % 50 === 49) held.handOn(2 * 512);
      }
      held.handOn();
      const snapshot = Buffer.alloc(4096, 1);
      expect(replayed(snapshot, handedOn).equals(replayed(snapshot, frames)), `seed ${seed}`).toBe(true);
      if (seed % 2 === 1) expect(handedOn.length).toBeLessThan(frames.length);
    }
  });
});

describe('a durable file whose held pages cannot be logged', () => {
  it('fails the settle, then every commit, with that error, and still closes', async () => {
    const folder = newFolder();
    const databaseFile = path.join(folder, 'inventory.sqlite');
    const failure = new Error('no space left on the device');
    const errors: unknown[] = [];
    const file = new DurableFile(databaseFile, { header: undefined, base: 0, logs: [], stale: [], setAside: [], fileBytes: 0, deltaPages: { offsets: [], pageBytes: 0 } }, () => {
      throw failure;
    }, (error) => errors.push(error));
    file.write(0, Buffer.alloc(512, 1));
    file.commit({ durable: false });
    await expect(file.settle()).rejects.toBe(failure);
    expect(() => file.commit()).toThrow(failure);
    expect(() => file.close()).toThrow(failure);
    // Nothing was committed: the log holds no transaction, and the snapshot was never written.
    expect(fs.existsSync(databaseFile)).toBe(false);
    expect(fs.readdirSync(folder).flatMap((name) => parseLog(fs.readFileSync(path.join(folder, name))).transactions)).toEqual([]);
  });
});

describe('a durable file that holds without bound (a command line)', () => {
  it('logs none of its held pages past the bound of a server, then each once at its settle', async () => {
    const folder = newFolder();
    const pageBytes = 4096;
    // 208 MiB of pages, past the 192 MiB at which a server's held pages are handed on at once.
    const pages = 53_248;
    const readAt = (offset: number, into: Uint8Array) => into.fill(offset / pageBytes % 251);
    const found = { header: undefined, base: 0, logs: [], stale: [], setAside: [], fileBytes: 0, deltaPages: { offsets: [], pageBytes: 0 } };
    const file = new DurableFile(path.join(folder, 'inventory.sqlite'), found, readAt, () => undefined, true);
    const page = Buffer.alloc(pageBytes);
    const logged = () => fs.readdirSync(folder).filter((name) => name.includes('.log.')).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0);
    const empty = logged();
    for (let written = 0; written < pages; written += 1024) {
      for (let n = written; n < written + 1024; n++) file.write(n * pageBytes, page);
      // A bulk write comes back to its first pages with every part, as an index's are.
      for (let n = 0; n < 16; n++) file.write(n * pageBytes, page);
      file.commit({ durable: false });
    }
    expect(logged()).toBe(empty);
    await file.settle();
    const frames = fs.readdirSync(folder).filter((name) => name.includes('.log.')).flatMap((name) => parseLog(fs.readFileSync(path.join(folder, name))).transactions.flat());
    const offsets = frames.flatMap((frame) => (frame.kind === 'write' ? Array.from({ length: frame.bytes.length / pageBytes }, (_, i) => frame.offset + i * pageBytes) : []));
    expect(offsets).toHaveLength(pages);
    expect(new Set(offsets).size).toBe(pages);
    file.close();
  });
});
