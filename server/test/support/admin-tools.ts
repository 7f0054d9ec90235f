/**
 * Helpers of the agent-config tests: the real OpenSSL and Python tools that an admin (and macOS's
 * own parsers, as closely as this machine can get) would use on the files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The outcome of a tool run. */
export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs /usr/bin/openssl with these arguments. */
export function openssl(args: string[]): ToolRun {
  const run = spawnSync('/usr/bin/openssl', args, { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * `openssl cms -verify` of a DER signature against a self-signed certificate as the trust anchor:
 * attached content when `content` is absent, detached otherwise. The signed content is written
 * to `out` when given.
 */
export function opensslCmsVerify(options: { signature: string; caFile: string; content?: string; out?: string }): ToolRun {
  return openssl([
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    options.signature,
    '-CAfile',
    options.caFile,
    ...(options.content ? ['-content', options.content] : []),
    '-out',
    options.out ?? '/dev/null',
  ]);
}

/** Parses a plist file with Python's plistlib; the result comes back through JSON. */
export function pythonPlist(file: string): unknown {
  return python('import plistlib,sys,json; print(json.dumps(plistlib.load(open(sys.argv[1],"rb")), default=str))', file);
}

/** The entry names of a ZIP, as Python's zipfile lists them. */
export function pythonZipNames(file: string): string[] {
  return python('import zipfile,sys,json; print(json.dumps(zipfile.ZipFile(sys.argv[1]).namelist()))', file) as string[];
}

/** Runs a Python snippet with one argument and parses what it prints as JSON. */
function python(code: string, argument: string): unknown {
  const run = spawnSync('python3', ['-c', code, argument], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** A new temporary directory and a function writing a file into it, returning its path. */
export function tempFiles(): { dir: string; write: (name: string, bytes: Uint8Array | string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-config-test-'));
  return {
    dir,
    write: (name, bytes) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
  };
}
