import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoOrganization } from '../organizations/ensure-demo-organization.js';
import { packageRoot } from '../package-root.js';
import { runCli } from './support/cli-binary.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { parseCurl } from './support/curl-command.js';
import { decisionsFolder, decisionsIndex, formerDecisionsPage, recordFiles } from './support/decision-records.js';
import { identitySealer } from './support/identity-sealer.js';
import { readMarkdown } from './support/markdown-document.js';

/**
 * The README and the reference pages in docs/ as a newcomer uses them: every link leads to a
 * file of the repository and every anchor to a heading, the decision records are all in their
 * index, the API examples work on the demo organization as written, and the command line is the
 * one the built binary has. Run after `npm run build:server` (the CLI runs from dist/).
 */

const root = packageRoot();
const documents = [
  'README.md',
  ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  decisionsIndex,
  ...recordFiles(root),
];
const parsed = new Map(documents.map((file) => [file, readMarkdown(path.join(root, file))]));

describe('links of the README and docs/', () => {
  it.each(documents)('%s: every link is a file of the repository, every #anchor a heading', (file) => {
    const problems: string[] = [];
    for (const href of parsed.get(file)!.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) {
        problems.push(`${href}: points outside the repository`);
        continue;
      }
      const [target = '', anchor] = href.split('#');
      const resolved = target ? path.resolve(root, path.dirname(file), decodeURIComponent(target)) : path.join(root, file);
      const relative = path.relative(root, resolved);
      if (relative.startsWith('..') || path.isAbsolute(relative)) {
        problems.push(`${href}: points outside the repository`);
        continue;
      }
      if (!fs.existsSync(resolved)) {
        problems.push(`${href}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!resolved.endsWith('.md')) problems.push(`${href}: an anchor into a file that is not Markdown`);
      else if (!readMarkdown(resolved).anchors.has(anchor)) problems.push(`${href}: no heading with that anchor`);
    }
    expect(problems).toEqual([]);
  });

  it('the README names the two commands, and the pages it promises', () => {
    const readme = parsed.get('README.md')!;
    const commands = readme.codeBlocks.filter((block) => block.lang === 'sh').map((block) => block.text.trim());
    expect(commands).toEqual(['npm ci && npm run serve', 'npm ci && npm test']);
    const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['serve', 'test']));
    for (const page of ['console', 'api', 'cli', 'sync', 'agent-files', 'bench']) expect(readme.links).toContain(`docs/${page}.md`);
    expect(readme.links).toContain(decisionsIndex);
  });
});

describe('the decision records', () => {
  /** The repository's Markdown and sources, as a newcomer's search finds them (not what is installed or built). */
  const sources = (folder: string): string[] =>
    fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const name = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) return entry.name.startsWith('.') || ['node_modules', 'dist', 'release', 'test-results', 'playwright-report', 'artifacts'].includes(entry.name) ? [] : sources(name);
      return /\.(md|ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [name] : [];
    });

  /** Every line of a source or Markdown file that names the one page: `file:line: text`. */
  const mentionsOfPage = () =>
    sources('.')
      .filter((file) => file !== 'server/test/support/decision-records.ts')
      .flatMap((file) =>
        fs
          .readFileSync(path.join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/(^|[^\w/.-])(\.\.\/)*(docs\/)?decisions\.md\b/.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
      );

  it('every record is listed in the index, and every line of the index leads to its record', () => {
    const problems: string[] = [];
    // One file per record, listed once by its title, in lines a reader takes in at a glance.
    const lines = fs
      .readFileSync(path.join(root, decisionsIndex), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('- '));
    const listed: string[] = [];
    for (const line of lines) {
      const match = /^- \[(.+)\]\(([^)#\s]+)\)$/.exec(line);
      if (line.length > 180) problems.push(`an index line of ${line.length} characters: ${line.slice(0, 80)}…`);
      if (!match) {
        problems.push(`an index line that is not "- [title](file)": ${line}`);
        continue;
      }
      const file = path.posix.join(decisionsFolder, match[2]!);
      listed.push(file);
      if (!fs.existsSync(path.join(root, file))) problems.push(`${file}: listed, no such file`);
      else if (!fs.readFileSync(path.join(root, file), 'utf8').startsWith(`# ${match[1]}\n`)) problems.push(`${file}: its heading is not "${match[1]}"`);
    }
    for (const file of recordFiles(root)) if (listed.filter((name) => name === file).length !== 1) problems.push(`${file}: not listed once in the index`);
    expect(problems).toEqual([]);
  });

  it('nothing points into the one page the records were split from', () => {
    expect(fs.existsSync(path.join(root, formerDecisionsPage))).toBe(false);
    expect(mentionsOfPage()).toEqual([]);
  });
});

describe('the API examples of docs/api.md, on the demo organization', () => {
  let server: ConsoleTestServer;
  let variables: Record<string, string>;
  let ids: Record<string, string>;

  beforeAll(async () => {
    server = await startConsoleTestServer([]);
    // The demo organization as serve creates it at first start (identitySealer: the test server unseals with it).
    const key = (await ensureDemoOrganization(server.store, identitySealer))!;
    variables = {
      API: server.url,
      KEY: key,
      // What `remediation-console sessions create-script-token` prints, made on the test server's data directory.
      SCRIPT_TOKEN: server.sessions.create('script', { name: 'docs examples' }).credential,
    };
    const v1 = async (pathAndQuery: string) => {
      const response = await fetch(`${server.url}/v1/${pathAndQuery}`, { headers: { Authorization: `Bearer ${key}` } });
      return ((await response.json()) as { data: Record<string, string | null>[] }).data;
    };
    // Ids that the examples' lists answer items for: an open finding with its endpoint and target.
    const finding = (await v1('vulnerability-findings?status=open&limit=100')).find((item) => item.endpoint_id && item.remediation_target_id)!;
    ids = { findingId: finding.id!, endpointId: finding.endpoint_id!, targetId: finding.remediation_target_id!, scopeId: (await v1('scopes?limit=1'))[0]!.id! };
  });

  afterAll(async () => {
    await server?.close();
  });

  it('every curl line is answered 2xx, a list with at least one item, in the order of the page', async () => {
    const lines = parsed
      .get('docs/api.md')!
      .codeBlocks.filter((block) => block.lang === 'sh')
      .flatMap((block) => block.text.replace(/\\\n\s*/g, ' ').split('\n'))
      .map((line) => line.trim())
      .filter((line) => line.startsWith('curl '));
    expect(lines.length).toBeGreaterThan(15);
    const jars = new Map<string, string>();
    const problems: string[] = [];
    for (const line of lines) {
      const request = parseCurl(line, variables);
      const url = request.url.replace(/<(\w+)>/g, (_whole, name: string) => {
        if (!Object.hasOwn(ids, name)) throw new Error(`No value for the placeholder <${name}> in: ${line}`);
        return ids[name]!;
      });
      const headers = { ...request.headers };
      if (request.sendsCookiesOf !== undefined) {
        const cookie = jars.get(request.sendsCookiesOf);
        if (cookie === undefined) throw new Error(`No earlier example keeps cookies in ${request.sendsCookiesOf}: ${line}`);
        headers.cookie = cookie;
      }
      const response = await fetch(url, { method: request.method, headers, body: request.body });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (request.keepsCookiesIn !== undefined) {
        jars.set(request.keepsCookiesIn, response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; '));
      }
      const type = response.headers.get('content-type') ?? '';
      if (response.status < 200 || response.status > 299) problems.push(`answered ${response.status}: ${line}`);
      else if (type.startsWith('application/json')) {
        // A list's page, at the top or as a field (the coverage gaps' findings), or an array.
        const body = JSON.parse(bytes.toString('utf8')) as unknown;
        const dataOf = (value: unknown) => (value && typeof value === 'object' ? (value as { data?: unknown }).data : undefined);
        const nested = body && typeof body === 'object' && !Array.isArray(body) ? Object.values(body).map(dataOf) : [];
        const lists = [Array.isArray(body) ? body : dataOf(body), ...nested].filter(Array.isArray);
        if (lists.some((list) => list.length === 0)) problems.push(`an empty list: ${line}`);
      } else if (type.startsWith('text/csv')) {
        if (bytes.toString('utf8').trim().split('\n').length < 2) problems.push(`a CSV without rows: ${line}`);
      }
      if (request.savesFile && !/\.csv\b/.test(request.url) && !response.headers.get('content-disposition')?.includes('filename=')) {
        problems.push(`a file without a name: ${line}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the commands of docs/cli.md, in the built binary', () => {
  /** The subcommands a `--help` lists (its "Commands:" section, without `help`). */
  const subcommands = (help: string) =>
    [...(help.split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
  /** The long options a `--help` lists. */
  const options = (help: string) => [...(help.split(/^Options:$/m)[1] ?? '').matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((match) => match[1]!);
  const help = async (command: string[]) => {
    const run = await runCli([...command, '--help']);
    if (run.status !== 0) throw new Error(`${command.join(' ')} --help exited ${run.status}: ${run.stderr}`);
    return run.stdout;
  };

  it('documents every command and option of the binary, and no other', async () => {
    const rows = parsed
      .get('docs/cli.md')!
      .tables.filter((table) => table.heading === 'Commands')
      .flatMap((table) => table.rows);
    const documented = new Map(
      rows.map(({ firstCode }) => {
        // The command is its leading lowercase words; then come arguments and options.
        const words = (firstCode ?? '').split(/\s+/);
        const end = words.findIndex((word) => !/^[a-z][a-z-]*$/.test(word));
        const command = end < 0 ? words : words.slice(0, end);
        return [command.join(' '), [...(firstCode ?? '').matchAll(/--[a-z-]+/g)].map((match) => match[0])];
      }),
    );
    // The binary's commands, a group's subcommands in place of the group.
    const groups = await Promise.all(subcommands(await help([])).map(async (name) => ({ name, inGroup: subcommands(await help([name])) })));
    const leaves = groups.flatMap(({ name, inGroup }) => (inGroup.length > 0 ? inGroup.map((sub) => [name, sub]) : [[name]]));
    const actual = new Map(await Promise.all(leaves.map(async (command) => [command.join(' '), options(await help(command))] as const)));

    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [command, documentedOptions] of documented) {
      const its = actual.get(command) ?? [];
      // --data-dir is said once for every command but verify; --help for all.
      expect({ command, options: documentedOptions.sort() }).toEqual({ command, options: its.filter((option) => option !== '--help' && option !== '--data-dir').sort() });
      expect({ command, dataDir: its.includes('--data-dir') }).toEqual({ command, dataDir: command !== 'verify' });
    }
  });
});
