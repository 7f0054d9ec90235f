#!/usr/bin/env node
// `npm run lint:electron`: Electronegativity over app/, failing on any finding of medium or high
// severity and on any file it could not parse (a file it cannot read is a file it did not check).
// Its own CLI cannot fail on severity (and breaks on the commander version this project uses),
// so this calls its runner directly.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity/dist/runner.js');
const input = path.dirname(fileURLToPath(import.meta.url));
const failingSeverities = new Set(['MEDIUM', 'HIGH']);
// Tests and their fakes do not ship.
const shipped = (issue) => !/(^|\/)test\/|\.test\.ts$/.test(issue.file);

const { issues: found, errors } = await run(
  {
    input,
    isRelative: true,
    isVerbose: false,
    parserPlugins: [],
    // Its defaults are those of the Electron version it is told, not of Electron 1.
    electronVersionOverride: require('electron/package.json').version,
    // This check downloads Electron's release list; the version is pinned by package.json and
    // kept current by dependency updates instead.
    excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
  },
  false,
);
const issues = found.filter(shipped);
const failing = issues.filter((issue) => failingSeverities.has(issue.severity.name));
const report = (issue) =>
  `${issue.severity.name.padEnd(13)} ${issue.confidence.name.padEnd(9)} ${issue.id} ${issue.file}:${issue.location.line}:${issue.location.column}${issue.manualReview ? ' (review)' : ''}`;

for (const issue of issues) console.log(report(issue));
for (const error of errors) console.log(`${error.tolerable ? 'warning' : 'ERROR'}: cannot parse ${error.file}: ${error.message}`);
const unparsed = errors.filter((error) => !error.tolerable);
console.log(`electronegativity: ${issues.length} findings, ${failing.length} of medium or high severity, ${unparsed.length} files not parsed`);
if (failing.length > 0 || unparsed.length > 0) process.exitCode = 1;
