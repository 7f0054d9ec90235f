import { describe, expect, it } from 'vitest';
import { dataDirArgument } from './cli/cli-context.js';
import { buildProgram } from './command-line.js';

const names = async (argv: string[]) => (await buildProgram(argv)).commands.map((command) => command.name());

describe('buildProgram', () => {
  it('registers only the command named, none for the version alone, or every command once for help and mistakes', async () => {
    expect(await names(['serve', '--port', '0'])).toEqual(['serve']);
    expect(await names(['verify', 'file'])).toEqual(['agent-config', 'verify']);
    expect(await names(['plan', 'export', '--format', 'json'])).toEqual(['plan']);
    expect(await names(['fix-by', 'summary', '--org', 'acme'])).toEqual(['fix-by']);
    const all = ['serve', 'orgs', 'keys', 'seed', 'agent-config', 'verify', 'sync', 'console-url', 'sessions', 'intel', 'plan', 'fix-by', 'views', 'report'];
    expect(await names(['no-such-command'])).toEqual(all);
    expect(await names(['--help'])).toEqual(all);
    expect(await names(['--version'])).toEqual([]);
    expect(await names(['-V'])).toEqual([]);
    expect(await names(['--version', 'orgs'])).toEqual(all);
  });
});

describe('dataDirArgument', () => {
  it('finds --data-dir as commander would: either spelling, the last one, none after --', () => {
    expect(dataDirArgument(['sync', '--data-dir', '/a'])).toBe('/a');
    expect(dataDirArgument(['keys', 'create', '--data-dir=/b', '--org', 'x'])).toBe('/b');
    expect(dataDirArgument(['sync', '--data-dir', '/a', '--data-dir=/c'])).toBe('/c');
    expect(dataDirArgument(['sync', '--', '--data-dir', '/a'])).toBeUndefined();
    expect(dataDirArgument(['sync'])).toBeUndefined();
  });
});
