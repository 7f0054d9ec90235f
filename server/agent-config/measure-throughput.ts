/**
 * Measures how many signed files per second generation makes, per platform and profile, with one
 * organization's signer (the cached case the HTTP route is in). Run: npx tsx
 * server/agent-config/measure-throughput.ts [seconds-per-case]. Sequential on purpose: it
 * reports what one request stream gets, and leaves the second core to others.
 */
import { generateAgentConfig } from './generate.js';
import { createSigningIdentity } from './signing-identity.js';
import type { AgentPlatform, AgentProfile } from '../schemas/agent-config.js';

const seconds = Number(process.argv[2] ?? 2);
const organization = { id: '7a0e3c52-5d8f-4b1e-9c61-2f4d8a9b0c17', slug: 'bench', name: 'Bench Org' };
const signer = await createSigningIdentity(organization);
const cases: [AgentPlatform, AgentProfile][] = [
  ['macos', 'mdm-full'],
  ['macos', 'mdm-permissions'],
  ['macos', 'config'],
  ['windows', 'config'],
  ['linux', 'config'],
];
const generate = (platform: AgentPlatform, profile: AgentProfile) =>
  generateAgentConfig({
    platform,
    profile,
    organization,
    signer,
    enrollmentSecret: 'bench-enrollment-secret',
    serverUrl: 'https://127.0.0.1:7300',
  });

for (const [platform, profile] of cases) {
  for (let i = 0; i < 20; i += 1) await generate(platform, profile); // warm-up: JIT and signer cache
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    await generate(platform, profile);
    count += 1;
  }
  const perSecond = (count * 1000) / (performance.now() - start);
  console.log(`${platform} ${profile}: ${perSecond.toFixed(0)} files/s (${count} in ${seconds} s)`);
}
