import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeLogWriter, logFile, logFormat } from './change-log.js';
import { framesWithBytes, parseLog, readFrameBytes, scanLogFile, toEnd } from './change-log-reader.js';
import { decodeStatement, encodeStatement } from './statement-codec.js';
import { readSnapshotHeader, snapshotHeaderFile } from './snapshot-header.js';
import { readStoreImage } from './store-image.js';
import { Store } from '../store.js';
import { lastJsonOfChild } from '../../test/support/child-script.js';

const folders: string[] = [];
const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-log-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the change log', () => {
  it('opens, with its last record torn at any byte, with the records before it', async () => {
    const dataDir = newDataDir();
    const file = path.join(dataDir, 'inventory.sqlite');
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    await store.checkpoint();
    store.write(() => store.apiKeys.create(organization.rowId, 'first'), { changes: ['api-keys'] });
    store.write(() => store.apiKeys.create(organization.rowId, 'second'), { changes: ['api-keys'] });
    const [log] = fs.readdirSync(dataDir).filter((name) => name.includes('.log.'));
    const logBytes = fs.readFileSync(path.join(dataDir, log!));
    // Closing would fold the log into the snapshot: keep the files as a crash would leave them.
    const snapshot = fs.readFileSync(file);
    const snapshotHeader = fs.readFileSync(snapshotHeaderFile(file));
    store.close();
    const { transactions, committedBytes } = parseLog(logBytes);
    expect(transactions).toHaveLength(2);
    expect(committedBytes).toBe(logBytes.length);
    const lastStart = parseLog(logBytes.subarray(0, logBytes.length - 1)).committedBytes;
    const labels = async (bytes: Buffer) => {
      fs.writeFileSync(file, snapshot);
      fs.writeFileSync(snapshotHeaderFile(file), snapshotHeader);
      for (const name of fs.readdirSync(dataDir).filter((n) => n.includes('.log.'))) fs.rmSync(path.join(dataDir, name));
      fs.writeFileSync(path.join(dataDir, log!), bytes);
      const reopened = await Store.open({ dataDir, readOnly: true });
      try {
        return reopened.apiKeys.list(organization.rowId).map((key) => key.label);
      } finally {
        reopened.close();
      }
    };
    expect(await labels(logBytes)).toEqual(['first', 'second']);
    for (let cut = lastStart; cut < logBytes.length; cut++) {
      const torn = parseLog(logBytes.subarray(0, cut));
      expect([torn.transactions.length, torn.committedBytes], `cut at ${cut}`).toEqual([1, lastStart]);
    }
    // Opened through the store at the record's first byte, in its middle and one byte short.
    for (const cut of [lastStart, Math.floor((lastStart + logBytes.length) / 2), logBytes.length - 1]) {
      expect(await labels(logBytes.subarray(0, cut)), `cut at ${cut}`).toEqual(['first']);
    }
    // A flipped byte inside the last record is a corrupt tail, ignored as a torn one.
    const corrupt = Buffer.from(logBytes);
    corrupt[lastStart + 20] = corrupt[lastStart + 20]! ^ 0xff;
    expect(await labels(corrupt)).toEqual(['first']);
  });

  it('cuts a torn tail off when the writer opens, and appends after it', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    await store.checkpoint();
    store.close();
    // The log that follows the snapshot, as the next writer would start it.
    const header = readSnapshotHeader(path.join(dataDir, 'inventory.sqlite'))!;
    const log = logFile(path.join(dataDir, 'inventory.sqlite'), header.sequence + 1);
    const writer = ChangeLogWriter.create(log, { sequence: header.sequence + 1, salt: header.salt });
    writer.write(0, Buffer.from('not committed'));
    writer.close();
    fs.appendFileSync(log, Buffer.from('W torn'));
    const reopened = await Store.open({ dataDir, command: 'test' });
    expect(fs.statSync(log).size).toBe(logFormat.headerBytes);
    reopened.write(() => reopened.apiKeys.create(organization.rowId, 'after'), { changes: ['api-keys'] });
    reopened.close();
    const image = await readStoreImage(path.join(dataDir, 'inventory.sqlite'), { holdsLock: false });
    // The torn log, cut, then the one the writer started: the key is in it, as a statement.
    expect(image.logs.map((found) => [found.file, found.committedBytes === logFormat.headerBytes])).toEqual([
      [log, true],
      [logFile(path.join(dataDir, 'inventory.sqlite'), header.sequence + 2), false],
    ]);
    expect(image.statements).toHaveLength(1);
    const again = await Store.open({ dataDir, readOnly: true });
    expect(again.apiKeys.list(organization.rowId).map((key) => key.label)).toEqual(['after']);
    again.close();
  });

  it('holds writes that need not be durable until the next durable one, which logs them with it, each page once', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    await store.checkpoint();
    const logBytes = () => fs.readdirSync(dataDir).filter((name) => name.includes('.log.')).reduce((sum, name) => sum + fs.statSync(path.join(dataDir, name)).size, 0);
    // What an open finds on disk now, as after a crash.
    const labelsOnDisk = async () => {
      const copy = newDataDir();
      for (const name of fs.readdirSync(dataDir).filter((n) => n.startsWith('inventory.sqlite'))) fs.copyFileSync(path.join(dataDir, name), path.join(copy, name));
      const reopened = await Store.open({ dataDir: copy, readOnly: true });
      try {
        return reopened.apiKeys.list(organization.rowId).map((key) => key.label);
      } finally {
        reopened.close();
      }
    };
    const before = logBytes();
    for (let i = 0; i < 50; i++) store.write(() => store.apiKeys.create(organization.rowId, `held ${i}`), { changes: ['api-keys'], durable: false });
    expect(logBytes()).toBe(before);
    expect(await labelsOnDisk()).toEqual([]);
    store.write(() => store.apiKeys.create(organization.rowId, 'durable'), { changes: ['api-keys'] });
    const labels = await labelsOnDisk();
    expect(labels).toHaveLength(51);
    expect(labels).toContain('durable');
    // Each key is logged as its statements, fewer bytes than the one page it changes.
    const oneWrite = (() => {
      const start = logBytes();
      store.write(() => store.apiKeys.create(organization.rowId, 'one more'), { changes: ['api-keys'] });
      return logBytes() - start;
    })();
    expect(oneWrite).toBeLessThan(1024);
    expect(logBytes() - before - oneWrite).toBeLessThan(oneWrite * 52);
    store.close();
  });

  it('folds every log at close when a checkpoint is under way, stopping it first', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    for (let i = 0; i < 300; i++) store.write(() => store.apiKeys.create(organization.rowId, `key ${i}`), { changes: ['api-keys'] });
    const running = store.checkpoint();
    // One turn: the checkpoint has taken its logs and written a slice at most.
    await new Promise((resolve) => setImmediate(resolve));
    store.write(() => store.apiKeys.create(organization.rowId, 'last'), { changes: ['api-keys'] });
    store.close();
    await running;
    expect(fs.readdirSync(dataDir).filter((name) => name.includes('.log.'))).toEqual([]);
    const reopened = await Store.open({ dataDir, readOnly: true });
    expect(reopened.apiKeys.list(organization.rowId)).toHaveLength(301);
    reopened.close();
  });

  it('leaves its logs at close when no checkpoint is due: the next open replays them', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    for (let i = 0; i < 30; i++) store.write(() => store.apiKeys.create(organization.rowId, `key ${i}`), { changes: ['api-keys'] });
    store.close();
    expect(fs.readdirSync(dataDir).filter((name) => name.includes('.log.')).length).toBeGreaterThan(0);
    const reopened = await Store.open({ dataDir, readOnly: true });
    expect(reopened.apiKeys.list(organization.rowId)).toHaveLength(30);
    reopened.close();
  });

  it('logs frames of any size as they were when handed to it, across its buffer and the reader’s windows (4 MiB)', () => {
    const log = path.join(newDataDir(), 'inventory.sqlite.log.1');
    const writer = ChangeLogWriter.create(log, { sequence: 1, salt: '0123456789abcdef' });
    let state = 7;
    const next = (below: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % below;
    };
    // One source buffer, filled again for each write: the writer must copy what it is handed.
    const source = Buffer.alloc(9 * 2 ** 20);
    // Pages compared by digest: a deep comparison of megabytes, byte by byte, takes minutes.
    const digest = (bytes: Uint8Array) => `${bytes.length} ${crypto.createHash('sha256').update(bytes).digest('hex')}`;
    type Expected = { kind: 'write'; offset: number; bytes: string } | { kind: 'truncate'; size: number } | { kind: 'statement'; sql: string };
    const committed: Expected[][] = [];
    let open: Expected[] = [];
    for (let step = 0; step < 120; step++) {
      const roll = next(100);
      if (roll < 70) {
        // Mostly pages and runs of pages, now and then one past the buffer's size.
        const length = next(10) === 0 ? 4 * 2 ** 20 + next(5 * 2 ** 20) : 1 + next(600_000);
        source.fill(step % 251, 0, length);
        source[length - 1] = next(256);
        const offset = next(1_000) * 4096;
        writer.write(offset, source.subarray(0, length));
        open.push({ kind: 'write', offset, bytes: digest(source.subarray(0, length)) });
      } else if (roll < 80) {
        const size = next(1_000) * 4096;
        writer.truncate(size);
        open.push({ kind: 'truncate', size });
      } else if (roll < 88) {
        const sql = `UPDATE t SET x = ${step}`;
        writer.statement(encodeStatement({ kind: 'exec', sql }));
        open.push({ kind: 'statement', sql });
      } else if (open.length > 0) {
        writer.commit({ durable: roll < 94 });
        committed.push(open);
        open = [];
      }
    }
    writer.commit();
    if (open.length > 0) committed.push(open);
    writer.close();
    const bytes = fs.readFileSync(log);
    expect(bytes.length).toBeGreaterThan(3 * 4 * 2 ** 20);
    const asExpected = (frame: { kind: string; offset?: number; bytes?: Uint8Array; size?: number; statement?: { sql: string } }): Expected =>
      frame.kind === 'write'
        ? { kind: 'write', offset: frame.offset!, bytes: digest(frame.bytes!) }
        : frame.kind === 'truncate'
          ? { kind: 'truncate', size: frame.size! }
          : { kind: 'statement', sql: frame.statement!.sql };
    expect(parseLog(bytes).transactions.map((frames) => frames.map(asExpected))).toEqual(committed);
    // The file read a window at a time, as a checkpoint and an open read it.
    const fd = fs.openSync(log, 'r');
    try {
      const { transactions, committedBytes } = toEnd(scanLogFile(fd));
      expect(committedBytes).toBe(bytes.length);
      const read = transactions.map((frames) =>
        frames.map((frame) =>
          frame.kind === 'statement'
            ? asExpected({ kind: 'statement', statement: decodeStatement(readFrameBytes(fd, frame)) as { sql: string } })
            : asExpected([...framesWithBytes(fd, [[frame]])][0]!),
        ),
      );
      expect(read).toEqual(committed);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('refuses every append after a write of its file failed, so that nothing after it can be lost at replay', () => {
    const log = path.join(newDataDir(), 'inventory.sqlite.log.1');
    const writer = ChangeLogWriter.create(log, { sequence: 1, salt: '0123456789abcdef' });
    writer.write(0, Buffer.alloc(4096, 1));
    writer.commit();
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const failing = vi.spyOn(fs, 'writeSync').mockImplementationOnce(() => {
      throw full;
    });
    writer.write(4096, Buffer.alloc(4096, 2));
    expect(() => writer.commit()).toThrow(full);
    failing.mockRestore();
    // The disk takes writes again; the writer still refuses, and closes its file.
    expect(() => writer.write(8192, Buffer.alloc(4096, 3))).toThrow(full);
    expect(() => writer.commit()).toThrow(full);
    expect(() => writer.close()).toThrow(full);
    expect(parseLog(fs.readFileSync(log)).transactions).toHaveLength(1);
  });

  // A checkpoint at a command's close scans every log before it writes a page: the 148,000
  // frames a replacement of `large` leaves took 41 MiB of heap at 290 bytes a frame, the peak then.
  it('keeps each frame a scan finds in under 120 bytes of heap', () => {
    const { frames, bytesPerFrame } = lastJsonOfChild<{ frames: number; bytesPerFrame: number }>('log-scan-heap-child.ts', { args: [newDataDir()], nodeFlags: ['--expose-gc'] });
    expect(frames).toBe(50_000);
    expect(bytesPerFrame).toBeLessThan(120);
  });
});
