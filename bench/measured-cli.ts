import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bin, root } from './support.js';

/** What one CLI process cost, as the kernel counted it. */
export interface ProcessFigures {
  /** Wall time from spawn to exit, node's start and the store's opening included. */
  seconds: number;
  /** Bytes the process caused to be written to storage (`write_bytes`), or written by system calls (`wchar`) where the kernel counts no `write_bytes`. */
  bytesWritten: number;
  bytesWrittenSource: 'write_bytes' | 'wchar';
  /**
   * Bytes the process passed to write() and its kin (`wchar`): what it asked to write, files,
   * pipes and sockets alike. `write_bytes` counts instead what it dirtied in the page cache,
   * which the kernel may count in pieces larger than the pages written into (a checkpoint's
   * 4 KiB writes in place, into a file the kernel cached in larger pieces), so the two differ.
   */
  bytesPassed: number;
  peakResidentBytes: number;
  stdout: string;
  /** Each line the process printed, with the seconds from spawn to when it came. */
  stdoutLines: { line: string; seconds: number }[];
}

const preload = pathToFileURL(path.join(root, 'bench', 'io-at-exit.mjs')).href;

/**
 * Runs the built CLI under bench/io-at-exit.mjs, which reads /proc/self/io and VmHWM at exit;
 * asynchronous, so that a remote served by this process answers meanwhile. Fails loudly.
 */
export async function measuredCli(dataDir: string, ...args: string[]): Promise<ProcessFigures> {
  const figuresFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rc-bench-io-')), 'figures.json');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', preload, bin, ...args, '--data-dir', dataDir], {
      env: { ...process.env, BENCH_PROCESS_FIGURES: figuresFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const stdoutLines: ProcessFigures['stdoutLines'] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      const seconds = (performance.now() - started) / 1000;
      // The lines this chunk completes: from the start of the last incomplete one.
      const pendingLine = stdout.lastIndexOf('\n') + 1;
      stdout += chunk.toString();
      const lines = stdout.slice(pendingLine).split('\n');
      lines.pop();
      for (const line of lines) stdoutLines.push({ line, seconds });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const seconds = (performance.now() - started) / 1000;
    if (status !== 0) throw new Error(`${args.join(' ')} failed (exit ${status}):\n${stderr}`);
    const { io, peakResidentBytes } = JSON.parse(fs.readFileSync(figuresFile, 'utf8')) as { io: Record<string, number>; peakResidentBytes: number };
    const counted = io.write_bytes !== undefined;
    return {
      seconds,
      bytesWritten: counted ? io.write_bytes! : io.wchar!,
      bytesWrittenSource: counted ? 'write_bytes' : 'wchar',
      bytesPassed: io.wchar!,
      peakResidentBytes,
      stdout,
      stdoutLines,
    };
  } finally {
    fs.rmSync(path.dirname(figuresFile), { recursive: true, force: true });
  }
}
