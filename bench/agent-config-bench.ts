import { createSigningIdentity, generateAgentConfig } from '../server/agent-config/index.js';
import type { AgentPlatform, AgentProfile } from '../contracts/enums.js';

/**
 * Signed files per second for each platform and profile, with one organization's signer (the
 * cached case the HTTP route is in). Sequential on purpose: what one request stream gets.
 */
export async function measureAgentConfigSigning(seconds: number): Promise<{ platform: AgentPlatform; profile: AgentProfile; perSecond: number }[]> {
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
    generateAgentConfig({ platform, profile, organization, signer, enrollmentSecret: 'bench-enrollment-secret', serverUrl: 'https://agents.example.com', teamId: 'Q7M3K9D2XP', bundleId: 'com.remediationconsole.agent' });
  const results = [];
  for (const [platform, profile] of cases) {
    for (let i = 0; i < 20; i += 1) await generate(platform, profile);
    let count = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      await generate(platform, profile);
      count += 1;
    }
    results.push({ platform, profile, perSecond: (count * 1000) / (performance.now() - start) });
  }
  return results;
}
