import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoAgentSettings } from '../../contracts/console/agent-settings.js';
import { dataDirectoryFiles } from '../store/engine/data-directory.js';
import { rawRequest } from '../test/support/api-client.js';
import { cliBinary } from '../test/support/cli-binary.js';
import { processState, untilZombie } from '../test/support/process-state.js';

// A test here runs tens of CLI processes one after the other, each a Node start-up: seconds on a
// quiet machine, minutes on a loaded one, where the default timeout failed them mid-way.
vi.setConfig({ testTimeout: 300_000 });

const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-cli-'));
  folders.push(dir);
  return dir;
}

// Data directories made once for the file, each test that starts from one getting a copy of its
// own: a CLI start that makes an organization (its signing key) or a first start of serve (the
// demo's 20,000 findings) costs seconds, a copy nothing. The tests of making them start empty.
/** `acme` ("Acme"), made by `orgs create`. */
let withAcme: string;
/** The demo organization, made by a first start of serve, then stopped. */
let withDemo: string;
beforeAll(async () => {
  withAcme = newDataDir();
  const created = cli(withAcme, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme');
  expect(created.status, created.stderr).toBe(0);
  withDemo = newDataDir();
  const first = await serve(withDemo, '--port', '0');
  // Answered once serve has gone on past its printed lines to take SIGTERM as a stop (it prints them first).
  expect((await fetch(`${first.url}/health`)).status).toBe(200);
  first.child.kill('SIGTERM');
  expect(await exited(first.child)).toBe(0);
});

/** A new data directory holding what `template` holds. */
function copyOf(template: string): string {
  const dir = newDataDir();
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}

/** Runs the built command line to completion. */
function cli(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cliBinary, ...args], {
    encoding: 'utf8',
    env: { ...process.env, REMEDIATION_CONSOLE_DATA_DIR: dataDir },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the built command line at a terminal (util-linux `script`) where `answer` is typed; what the terminal showed. */
function cliAtTerminal(dataDir: string, answer: string, ...args: string[]) {
  const command = [process.execPath, cliBinary, ...args].map((word) => `'${word}'`).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    input: `${answer}\n`,
    env: { ...process.env, REMEDIATION_CONSOLE_DATA_DIR: dataDir },
  });
  return { status: result.status, output: result.stdout };
}

/** Starts `serve` and waits for the lines it prints once it listens. */
function serve(dataDir: string, ...args: string[]) {
  return listening(spawn(process.execPath, [cliBinary, 'serve', '--data-dir', dataDir, ...args]));
}

/** Waits for the lines a starting `serve` prints once it listens (the demo's key at first start). */
async function listening(child: ChildProcessWithoutNullStreams) {
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address:\n${output}`)), 60_000);
    const check = () => {
      if (/Console: .*\n/.test(output) && (!output.includes('Created the demo') || /\n {2}rc_\S+\n/.test(output))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`serve exited:\n${output}`));
    });
  });
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  return { child, url, output: () => output };
}

/** Every entry of a ZIP file, read by Python's zipfile, as one text. */
function unzipText(file: string): string {
  return spawnSync('python3', ['-c', 'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(b"".join(z.read(n) for n in z.namelist()).decode("latin-1"))', file], { encoding: 'utf8' }).stdout;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('remediation-console serve', () => {
  it('creates the demo organization at first start, prints where it listens and the key, and serves it', async () => {
    const dataDir = newDataDir();
    const { child, url, output } = await serve(dataDir, '--port', '0');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The link names the data directory's host under .localhost; the same link at 127.0.0.1 follows, with its cost.
    const port = new URL(url).port;
    expect(output()).toMatch(new RegExp(`Console: http://rc-[0-9a-f]{12}\\.localhost:${port}/#token=(\\S+)\\n`));
    const token = /Console: \S+#token=(\S+)/.exec(output())![1]!;
    expect(output()).toContain(`the same link: http://127.0.0.1:${port}/#token=${token}\n`);
    expect(output()).toMatch(/its session cookie then also goes to every other service on 127\.0\.0\.1, whatever its port/);
    const key = /\n {2}(rc_\S+)\n/.exec(output())![1]!;

    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    const endpoints = (await (await fetch(`${url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(endpoints.total).toBe(500);
    const findings = (await (await fetch(`${url}/v1/vulnerability-findings?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(findings.total).toBe(20_000);

    const address = JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).apiAddress, 'utf8'));
    expect(address).toMatchObject({ url, port: Number(new URL(url).port) });
    expect(JSON.stringify(address)).not.toContain('rc_');

    const second = cli(dataDir, 'keys', 'create', '--org', 'demo');
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`in use by process ${child.pid}`);
    expect(second.stderr).toContain('remediation-console serve');

    const listed = cli(dataDir, 'orgs', 'list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/demo\s+local \(demo\)\s+Demo Organization/);
    // The demo's agent settings are shown alongside serve; changing them waits for it.
    const settings = cli(dataDir, 'orgs', 'agent-settings', '--org', 'demo');
    expect(settings.status, settings.stderr).toBe(0);
    expect(settings.stdout).toContain(`Agent settings of "demo" (the demo's fictitious settings)`);
    expect(settings.stdout).toContain(`Server URL: ${demoAgentSettings.serverUrl}`);
    expect(settings.stdout).toContain(`Team ID:    ${demoAgentSettings.teamId}`);
    expect(cli(dataDir, 'orgs', 'agent-settings', '--org', 'demo', '--team-id', 'K4P8R2M6TQ').status).toBe(1);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).apiAddress)).toBe(false);

    const restarted = await serve(dataDir, '--port', '0');
    expect(restarted.output()).not.toContain('Created the demo');
    const again = (await (await fetch(`${restarted.url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(again.total).toBe(500);
    restarted.child.kill('SIGTERM');
    await exited(restarted.child);
  });

  it('lets keys create take the data directory at once after serve was killed', async () => {
    const dataDir = copyOf(withDemo);
    // Under `sh -c 'serve & exec sleep'` nothing reaps serve once killed: it stays a zombie, as a
    // killed writer does here until init reaps it late, and a lock resting on its pid would hold.
    const shell = spawn('sh', ['-c', '"$0" "$@" & echo "serve pid $!"; exec sleep 120', process.execPath, cliBinary, 'serve', '--data-dir', dataDir, '--port', '0']);
    const { output } = await listening(shell);
    const pid = Number(/serve pid (\d+)/.exec(output())![1]);
    process.kill(pid, 'SIGKILL');
    await untilZombie(pid);

    const key = cli(dataDir, 'keys', 'create', '--org', 'demo');
    expect(key.stderr).toBe('');
    expect(key.status).toBe(0);
    expect(key.stdout).toMatch(/^rc_[A-Za-z0-9_-]{43}\n$/);
    expect(processState(pid)).toBe('Z');
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
  });

  it('falls back to a free port when the configured one is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const { child, url, output } = await serve(copyOf(withDemo), '--port', String(taken));
    expect(new URL(url).port).not.toBe(String(taken));
    expect(output()).toContain(`port ${taken} was taken`);
    child.kill('SIGTERM');
    await exited(child);
    blocker.close();
  });

  it('refuses bad options with a clear message', () => {
    const dataDir = newDataDir();
    for (const args of [['serve', '--port', '70000'], ['serve', '--port', 'abc'], ['serve', '--host', 'a b']]) {
      const result = cli(dataDir, ...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/error: .*(--port|--host)/);
    }
  });
});

describe('remediation-console --version', () => {
  it("prints the version of package.json, and nothing else", () => {
    const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(cli(newDataDir(), flag)).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('organizations, keys and seeding', () => {
  it('creates, lists, keys, seeds and removes organizations', () => {
    const dataDir = newDataDir();
    expect(cli(dataDir, 'orgs', 'list').status).toBe(1);

    const created = cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme Corp');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created organization "acme"');
    expect(cli(dataDir, 'orgs', 'create', '--slug', 'bare', '--name', 'Bare', '--no-enrollment-secret').status).toBe(0);

    const listed = cli(dataDir, 'orgs', 'list').stdout;
    expect(listed).toMatch(/acme\s+local\s+Acme Corp/);
    expect(listed).toMatch(/bare\s+local\s+Bare/);

    const key = cli(dataDir, 'keys', 'create', '--org', 'acme');
    expect(key.status).toBe(0);
    expect(key.stdout).toMatch(/^rc_[A-Za-z0-9_-]{43}\n$/);

    const seeded = cli(dataDir, 'seed', '--org', 'acme', '--size', 'demo', '--seed', '42');
    expect(seeded.status, seeded.stderr).toBe(0);
    expect(seeded.stdout).toContain('Seeded "acme" with the demo dataset (seed 42), dated from ');
    // Dated from today (the store's clock), not from the generator's fixed reference.
    const datedFrom = Date.parse(/dated from (\d{4}-\d{2}-\d{2})/.exec(seeded.stdout)![1]!);
    expect(Math.abs(Date.now() - datedFrom)).toBeLessThan(2 * 86_400_000);

    expect(cli(dataDir, 'orgs', 'remove', '--slug', 'bare', '--yes').status).toBe(0);
    expect(cli(dataDir, 'orgs', 'list').stdout).not.toContain('bare');
  });

  it('asks at a terminal before orgs remove, and without one removes only with --yes', () => {
    const dataDir = copyOf(withAcme);
    const database = () => fs.readFileSync(dataDirectoryFiles(dataDir).database);
    const before = database();
    const scripted = cli(dataDir, 'orgs', 'remove', '--slug', 'acme');
    expect(scripted.status).toBe(2);
    expect(scripted.stderr).toBe(
      'error: orgs remove would delete the local organization "acme" (Acme) with all its data, its signing key, enrollment secret and API keys, ' +
        'which cannot be undone: give --yes to confirm (there is no terminal here to ask at)\n',
    );
    expect(database().equals(before)).toBe(true);

    const declined = cliAtTerminal(dataDir, 'n', 'orgs', 'remove', '--slug', 'acme');
    expect(declined.output).toContain('Remove the local organization "acme" (Acme) with all its data, its signing key, enrollment secret and API keys? This cannot be undone. [y/N]');
    expect(declined.output).toContain('Nothing was removed: "acme" stays as it was');
    expect(declined.status).toBe(1);
    expect(cli(dataDir, 'orgs', 'list').stdout).toMatch(/acme\s+local\s+Acme/);

    const confirmed = cliAtTerminal(dataDir, 'y', 'orgs', 'remove', '--slug', 'acme');
    expect(confirmed.output).toContain('Removed organization "acme".');
    expect(confirmed.status).toBe(0);
    expect(cli(dataDir, 'orgs', 'list').stdout).toBe('No organizations yet.\n');
  });

  it.each([
    [['orgs', 'create', '--slug', 'Bad Slug!', '--name', 'x'], /Invalid slug "Bad Slug!"/],
    [['orgs', 'create', '--slug', 'acme'], /--name/],
    [['keys', 'create', '--org', 'nobody'], /No organization with slug "nobody"/],
    [['seed', '--org', 'acme', '--size', 'huge'], /--size must be demo, medium or large/],
    [['seed', '--org', 'acme', '--size', 'demo', '--seed', '-4'], /--seed/],
    [['orgs', 'remove', '--slug', 'nobody'], /No organization with slug "nobody"/],
    [['orgs', 'connect', '--slug', 'r', '--remote', 'http://127.0.0.1:9', '--api-key-file', '/no/such/key'], /^error: Cannot read the API key file \/no\/such\/key: there is no such file \(check the path/],
    [['no-such-command'], /unknown command/],
  ])('answers %j with exit code 2 and a message, changing nothing', (args, message) => {
    const dataDir = copyOf(withAcme);
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    const result = cli(dataDir, ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).equals(before)).toBe(true);
  });

  it('refuses to create an organization twice', () => {
    const dataDir = copyOf(withAcme);
    const again = cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme');
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('exists already');
  });
});

/** Gives an organization the agent settings its files need. */
function setAgentSettings(dataDir: string, slug: string): void {
  const result = cli(dataDir, 'orgs', 'agent-settings', '--org', slug, '--server-url', `https://agents.${slug}.example`, '--team-id', 'Q7M3K9D2XP');
  expect(result.status, result.stderr).toBe(0);
}

describe('agent settings', () => {
  it('shows them, changes those given, and prints what is missing and the warnings', () => {
    const dataDir = copyOf(withAcme);
    const empty = cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme');
    expect(empty.status, empty.stderr).toBe(0);
    expect(empty.stdout).toBe(
      [
        'Agent settings of "acme":',
        '  Server URL: (not set)',
        '  Team ID:    (not set)',
        '  Bundle id:  com.remediationconsole.agent',
        'Not set yet, needed by its files: set with "remediation-console orgs agent-settings --org acme --server-url URL --team-id ID"',
        '',
      ].join('\n'),
    );

    const set = cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme', '--server-url', 'http://agents.acme.example:8080', '--bundle-id', 'com.acme.agent');
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toContain('Server URL: http://agents.acme.example:8080');
    expect(set.stdout).toContain('Bundle id:  com.acme.agent');
    expect(set.stdout).toContain('set with "remediation-console orgs agent-settings --org acme --team-id ID"');
    expect(set.stdout).toMatch(/Warning: The server URL is plain http/);

    const team = cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme', '--team-id', 'Q7M3K9D2XP');
    expect(team.stdout).toContain('Team ID:    Q7M3K9D2XP');
    expect(team.stdout).toContain('Server URL: http://agents.acme.example:8080');
    expect(team.stdout).not.toContain('Not set yet');

    const loopback = cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme', '--server-url', 'http://127.0.0.1:7300', '--allow-loopback');
    expect(loopback.status, loopback.stderr).toBe(0);
    expect(loopback.stdout).toMatch(/Warning: The server URL is a loopback address/);
  });

  it('refuses bad values with exit code 2 naming the option, saving nothing', () => {
    const dataDir = copyOf(withAcme);
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    for (const [args, message] of [
      [['--server-url', 'https://127.0.0.1:7300'], /--server-url is a loopback address/],
      [['--server-url', 'http://localhost'], /--server-url is a loopback address/],
      [['--server-url', 'agents.acme.example'], /--server-url must be an absolute URL/],
      [['--team-id', 'abc'], /--team-id must be the 10 characters/],
      [['--bundle-id', 'agent'], /--bundle-id must be a reverse-DNS/],
      [['--server-url', 'ftp://x.example', '--team-id', 'abc'], /--server-url must be an https URL.*\n.*--team-id must be/],
      [['--server-url', 'https://agents.acme.example', '--team-id', 'abc'], /--team-id/],
    ] as const) {
      const result = cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme', ...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).equals(before), args.join(' ')).toBe(true);
    }
    expect(cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme').stdout).toContain('Server URL: (not set)');
  });
});

describe('agent configuration files', () => {
  it('makes no file without a server URL: names the command that sets it; --server-url sets it for one file', () => {
    const dataDir = copyOf(withAcme);
    const out = path.join(dataDir, 'out');
    const missing = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/"acme" has no server URL/);
    expect(missing.stderr).toContain('remediation-console orgs agent-settings --org acme --server-url URL');
    expect(fs.existsSync(out)).toBe(false);

    // The MDM profiles also pin the Team ID.
    const once = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'macos', '--profile', 'mdm-permissions', '--out', out, '--server-url', 'https://once.acme.example');
    expect(once.status).toBe(1);
    expect(once.stderr).toContain('remediation-console orgs agent-settings --org acme --team-id ID');

    const overridden = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out, '--server-url', 'https://once.acme.example');
    expect(overridden.status, overridden.stderr).toBe(0);
    expect(unzipText(out)).toContain('https://once.acme.example');
    // Only for that file: nothing was saved.
    expect(cli(dataDir, 'orgs', 'agent-settings', '--org', 'acme').stdout).toContain('Server URL: (not set)');

    const loopback = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out, '--server-url', 'http://127.0.0.1:7300');
    expect(loopback.status).toBe(2);
    expect(loopback.stderr).toMatch(/--server-url is a loopback address/);
    expect(cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out, '--server-url', 'http://127.0.0.1:7300', '--allow-loopback').status).toBe(0);

    setAgentSettings(dataDir, 'acme');
    const made = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out);
    expect(made.status, made.stderr).toBe(0);
    expect(unzipText(out)).toContain('https://agents.acme.example');
    expect(unzipText(out)).not.toContain('127.0.0.1');
  });

  it('writes, verifies and shows signed files; refuses tampered ones and foreign certificates', () => {
    const dataDir = copyOf(withAcme);
    cli(dataDir, 'orgs', 'create', '--slug', 'other', '--name', 'Other');
    setAgentSettings(dataDir, 'acme');
    const acmeId = /acme\s+local\s+Acme\s+(\S+)/.exec(cli(dataDir, 'orgs', 'list').stdout)![1]!;
    const certFile = path.join(dataDir, 'acme.pem');
    const cert = cli(dataDir, 'orgs', 'cert', '--org', 'acme');
    expect(cert.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    fs.writeFileSync(certFile, cert.stdout);
    const otherCert = path.join(dataDir, 'other.pem');
    fs.writeFileSync(otherCert, cli(dataDir, 'orgs', 'cert', '--org', 'other').stdout);

    for (const [platform, profile] of [['macos', 'mdm-full'], ['macos', 'mdm-permissions'], ['macos', 'config'], ['windows', 'config'], ['linux', 'config']]) {
      const out = path.join(dataDir, `${platform}-${profile}`);
      const written = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', platform!, '--profile', profile!, '--out', out);
      expect(written.status, written.stderr).toBe(0);
      const verified = cli(dataDir, 'verify', out, '--cert', certFile);
      expect(verified.status, verified.stderr).toBe(0);
      expect(verified.stdout).toContain(`Organization: ${acmeId}`);
      expect(verified.stdout).toMatch(/Config id: [0-9a-f-]{36}/);
      expect(verified.stdout).toMatch(/Generated at: \d{4}-\d\d-\d\dT/);
      expect(verified.stdout).toContain(profile === 'config' ? 'Files:' : 'com.apple.TCC.configuration-profile-policy');

      const foreign = cli(dataDir, 'verify', out, '--cert', otherCert);
      expect(foreign.status).toBe(1);
      expect(foreign.stderr).toMatch(/Verification failed/);
      const bytes = fs.readFileSync(out);
      // A byte of signed content: the middle of a profile, or of the first ZIP entry's data (a ZIP's
      // header fields, such as its timestamps, are not signed content).
      const at =
        profile === 'config'
          ? 30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28) + Math.floor(bytes.readUInt32LE(18) / 2)
          : Math.floor(bytes.length / 2);
      bytes[at] = bytes[at]! ^ 0x10;
      fs.writeFileSync(`${out}.tampered`, bytes);
      const tampered = cli(dataDir, 'verify', `${out}.tampered`);
      expect(tampered.status).toBe(1);
      expect(tampered.stderr).toMatch(/Verification failed/);
    }
  });

  it('sets, rotates and clears the enrollment secret, and refuses bad calls', () => {
    const dataDir = newDataDir();
    cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme', '--no-enrollment-secret');
    setAgentSettings(dataDir, 'acme');
    const out = path.join(dataDir, 'out.zip');
    const missing = cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no enrollment secret/);
    expect(fs.existsSync(out)).toBe(false);

    const secretFile = path.join(dataDir, 'secret.txt');
    fs.writeFileSync(secretFile, 'a-very-long-enrollment-secret-0123\n');
    expect(cli(dataDir, 'orgs', 'enrollment-secret', '--org', 'acme', '--set-file', secretFile).status).toBe(0);
    expect(cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out).status).toBe(0);
    expect(unzipText(out)).toContain('a-very-long-enrollment-secret-0123');
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).includes(Buffer.from('a-very-long-enrollment-secret-0123'))).toBe(false);

    expect(cli(dataDir, 'orgs', 'enrollment-secret', '--org', 'acme', '--rotate').status).toBe(0);
    expect(cli(dataDir, 'orgs', 'enrollment-secret', '--org', 'acme', '--clear').status).toBe(0);
    expect(cli(dataDir, 'agent-config', '--org', 'acme', '--platform', 'linux', '--out', out).status).toBe(1);

    for (const args of [[], ['--rotate', '--clear'], ['--set-file', path.join(dataDir, 'nope')]]) {
      const result = cli(dataDir, 'orgs', 'enrollment-secret', '--org', 'acme', ...args);
      expect(result.status, args.join(' ')).toBe(2);
    }
    fs.writeFileSync(secretFile, 'short');
    expect(cli(dataDir, 'orgs', 'enrollment-secret', '--org', 'acme', '--set-file', secretFile).stderr).toMatch(/16 to 512 characters/);
  });

  it.each([
    [['--platform', 'windows', '--profile', 'mdm-full'], /combination.*"mdm-full".*"windows"/],
    [['--platform', 'beos'], /--platform must be one of linux, macos, windows/],
    [['--platform', 'macos', '--profile', 'full'], /--profile must be one of/],
  ])('refuses agent-config %j with exit code 2', (args, message) => {
    const dataDir = copyOf(withAcme);
    const result = cli(dataDir, 'agent-config', '--org', 'acme', '--out', path.join(dataDir, 'x'), ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('refuses verify of a file that is not a configuration, or that does not exist', () => {
    const dataDir = newDataDir();
    const junk = path.join(dataDir, 'junk');
    fs.writeFileSync(junk, 'not a signed file');
    expect(cli(dataDir, 'verify', junk).status).toBe(1);
    const absent = cli(dataDir, 'verify', path.join(dataDir, 'absent'));
    expect(absent.status).toBe(2);
    expect(absent.stderr).toBe(`error: Cannot read the file ${path.join(dataDir, 'absent')}: there is no such file (check the path; a relative one starts from the current folder)\n`);
    const noCert = cli(dataDir, 'verify', junk, '--cert', dataDir);
    expect(noCert).toMatchObject({ status: 2, stderr: `error: Cannot read --cert ${dataDir}: it is a folder, not a file\n` });
  });
});

describe('remediation-console console-url', () => {
  /**
   * Opens a console link as the console's page does, under the link's own host name (Node does
   * not resolve `.localhost` names: the request goes to 127.0.0.1 with that Host header, as a
   * browser's would); answers the status and the session cookie set, if any.
   */
  async function openLink(link: string) {
    const url = new URL(link);
    const token = new URLSearchParams(url.hash.slice(1)).get('token');
    const response = await rawRequest(Number(url.port), {
      path: '/app/session',
      method: 'POST',
      headers: { host: url.host, origin: url.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const body = JSON.parse(response.body) as { error?: string };
    return { status: response.status, error: body.error, cookie: response.headers['set-cookie']?.[0]?.split(';')[0] };
  }
  const organizations = async (url: string, cookie: string) => (await fetch(`${url}/app/organizations`, { headers: { cookie } })).status;

  it('prints a new one-time link while serve runs, and one that a later serve on the data directory opens', async () => {
    const dataDir = copyOf(withDemo);
    const running = await serve(dataDir, '--port', '0');
    const printed = /Console: (\S+)/.exec(running.output())![1]!;
    const first = await openLink(printed);
    expect(first.status).toBe(200);
    expect(await openLink(printed)).toMatchObject({ status: 401, error: expect.stringMatching(/already used/) });

    const onDemand = cli(dataDir, 'console-url', '--data-dir', dataDir);
    expect(onDemand.status).toBe(0);
    expect(onDemand.stdout).toMatch(new RegExp(`^http://rc-[0-9a-f]{12}\\.localhost:${new URL(running.url).port}/#token=[A-Za-z0-9_-]{43}\\n$`));
    expect(new URL(onDemand.stdout).hostname).toBe(new URL(printed).hostname);
    expect(onDemand.stderr).toContain(`the same link: ${running.url}/#token=`);
    expect(onDemand.stderr).toMatch(/once, within 24 hours/);
    const second = await openLink(onDemand.stdout.trim());
    expect(second.status).toBe(200);
    expect(second.cookie).not.toBe(first.cookie);
    expect(await openLink(onDemand.stdout.trim())).toMatchObject({ status: 401 });
    expect(await organizations(running.url, first.cookie!)).toBe(200);

    running.child.kill('SIGTERM');
    expect(await exited(running.child)).toBe(0);
    const offline = cli(dataDir, 'console-url', '--data-dir', dataDir);
    expect(offline.status).toBe(0);
    expect(offline.stderr).toMatch(/No server answers on .* now/);
    const token = /#token=(\S+)/.exec(offline.stdout)![1]!;

    const restarted = await serve(dataDir, '--port', '0');
    try {
      expect(await organizations(restarted.url, first.cookie!)).toBe(200);
      expect((await openLink(`${restarted.url}/#token=${token}`)).status).toBe(200);
      // The named host is the data directory's: the restarted server answers under it too.
      expect((await openLink(`http://${new URL(printed).hostname}:${new URL(restarted.url).port}/#token=${cli(dataDir, 'console-url', '--data-dir', dataDir).stdout.split('#token=')[1]!.trim()}`)).status).toBe(200);
    } finally {
      restarted.child.kill('SIGTERM');
      await exited(restarted.child);
    }
  });

  it('lists and revokes sessions and script tokens while serve runs; a script token works in its own header until revoked', async () => {
    const dataDir = copyOf(withDemo);
    const running = await serve(dataDir, '--port', '0');
    try {
      const browser = await openLink(/Console: (\S+)/.exec(running.output())![1]!);
      expect(browser.status).toBe(200);
      const created = cli(dataDir, 'sessions', 'create-script-token', '--name', 'nightly export', '--days', '30', '--data-dir', dataDir);
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/^rcs_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\n$/);
      expect(created.stderr).toMatch(/x-console-script-token.*not shown again/);
      const token = created.stdout.trim();
      const asScript = async (header: string) => (await fetch(`${running.url}/app/organizations`, { headers: { [header]: token } })).status;
      expect(await asScript('x-console-script-token')).toBe(200);
      expect(await asScript('x-console-token')).toBe(401);

      const listed = cli(dataDir, 'sessions', 'list', '--data-dir', dataDir);
      expect(listed.status, listed.stderr).toBe(0);
      const rows = listed.stdout.trim().split('\n');
      expect(rows[0]).toMatch(/^ID\s+KIND\s+NAME OR BROWSER\s+CREATED \(UTC\)\s+LAST USED\s+ENDS UNLESS USED$/);
      expect(rows.slice(1).map((row) => row.split(/\s+/)[1])).toEqual(['browser', 'script']);
      expect(rows[2]).toContain('nightly export');
      expect(listed.stdout).not.toContain(token.split('.')[1]);
      const browserId = rows[1]!.split(/\s+/)[0]!;

      expect(cli(dataDir, 'sessions', 'revoke', '--id', browserId, '--data-dir', dataDir)).toMatchObject({ status: 0, stdout: `Revoked ${browserId}.\n` });
      expect(await organizations(running.url, browser.cookie!)).toBe(401);
      expect(await asScript('x-console-script-token')).toBe(200);
      expect(cli(dataDir, 'sessions', 'revoke', '--id', browserId, '--data-dir', dataDir)).toMatchObject({ status: 2, stderr: expect.stringMatching(/no session or script token has the id/) });

      expect(cli(dataDir, 'sessions', 'revoke', '--all', '--data-dir', dataDir)).toMatchObject({ status: 0, stdout: 'Revoked 1 session or script token.\n' });
      expect(await asScript('x-console-script-token')).toBe(401);
      expect(cli(dataDir, 'sessions', 'list', '--data-dir', dataDir).stdout).toBe('No console sessions or script tokens.\n');

      for (const [args, message] of [
        [['revoke'], /either --id ID or --all/],
        [['revoke', '--all', '--kind', 'robot'], /--kind must be browser or script/],
        [['create-script-token', '--name', '  '], /--name must be 1 to 100 characters/],
        [['create-script-token', '--name', 'x', '--days', '400'], /--days must be a whole number from 1 to 365/],
      ] as const) {
        const result = cli(dataDir, 'sessions', ...args, '--data-dir', dataDir);
        expect(result.status, args.join(' ')).toBe(2);
        expect(result.stderr).toMatch(message);
      }
    } finally {
      running.child.kill('SIGTERM');
      await exited(running.child);
    }
  });
});
