#!/usr/bin/env node
// The command line runs from its bundle in dist/cli: `npm run build` makes it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/command-line.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('remediation-console is not built yet: run "npm run build" first.');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
