/**
 * The Agent configuration preview against the files themselves: for every platform and profile,
 * what `GET /app/orgs/{slug}/agent-config/preview` says the file holds is what `verify` finds in
 * the file `GET /v1/agent/config` hands out, no more and no less; and a replica's preview names
 * no id of its own, while the file its remote hands out records the remote's.
 */
import { parse as parsePlist } from 'plist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentConfigPreview, agentFileSettings } from '../../contracts/console/agent-settings.js';
import { checkPlatformProfile } from '../../contracts/agent-config.js';
import { agentPlatforms, agentProfiles } from '../../contracts/enums.js';
import { type AgentConfigReport, extractProfile, verifyAgentConfig } from '../agent-config/index.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { createLocalOrganization } from '../organizations/manage-organizations.js';
import type { Organization } from '../store/records/organization-records.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { smallInventory } from './support/fixtures.js';
import { identitySealer } from './support/identity-sealer.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

const combinations = agentPlatforms.flatMap((platform) =>
  agentProfiles.filter((profile) => checkPlatformProfile(platform, profile) === undefined).map((profile) => [platform, profile] as const),
);

let server: ConsoleTestServer;
let remote: TestServer;
let acme: Organization;
let acmeKey: string;

beforeAll(async () => {
  remote = await startTestServer([
    { slug: 'tenant', inventory: smallInventory(3, 1), agentSettings: { serverUrl: 'https://agents.tenant.example', teamId: 'K4P8R2M6TQ', bundleId: 'com.tenant.agent' } },
  ]);
  // One sealer for the signing keys and the remote's key, as the product has.
  server = await startConsoleTestServer([], { sealer: identitySealer, syncPolicy: fastPolicy });
  // A local organization as `orgs create` makes one: a signing identity and an enrollment secret.
  acme = await createLocalOrganization(server.store, identitySealer, { slug: 'acme', name: 'Acme', enrollmentSecret: true });
  acmeKey = server.store.write(() => server.store.apiKeys.create(acme.rowId, 'test').key, { changes: ['api-keys'] });
  const settings = await server.app('/orgs/acme/agent-settings', {
    method: 'PUT',
    body: { serverUrl: 'https://agents.acme.example', teamId: 'Q7M3K9D2XP', bundleId: 'com.acme.agent' },
  });
  expect(settings.status).toBe(200);
  const connected = await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.orgs[0]!.apiKey } });
  expect(connected.status).toBe(201);
  await server.syncEnded('replica');
});
afterAll(async () => {
  await server.close();
  await remote.close();
});

async function previewOf(slug: string, platform: string, profile: string): Promise<AgentConfigPreview> {
  const { status, body } = await server.app(`/orgs/${slug}/agent-config/preview?platform=${platform}&profile=${profile}`);
  expect(status).toBe(200);
  return body as AgentConfigPreview;
}

async function verified(response: Response, certificatePem?: string): Promise<{ report: AgentConfigReport; bytes: Buffer }> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.status, bytes.toString()).toBe(200);
  return { report: await verifyAgentConfig(bytes, { certificatePem }), bytes };
}

/** The settings `verify` found in a file, by the names the preview gives them. */
const foundSettings = (report: AgentConfigReport) =>
  agentFileSettings.filter((setting) => (setting === 'enrollmentSecret' ? report.holdsEnrollmentSecret : report[setting] !== null));

/** The entries of a ZIP, or the PayloadDisplayName of each payload of a profile, in order. */
function contentsOf(report: AgentConfigReport, bytes: Buffer): string[] {
  if (report.kind === 'zip') return report.files;
  const profile = parsePlist(extractProfile(bytes)) as { PayloadContent: { PayloadDisplayName: string }[] };
  return profile.PayloadContent.map((payload) => payload.PayloadDisplayName);
}

describe('the Agent configuration preview', () => {
  it.each(combinations)('of a local organization, %s %s, lists exactly what verify finds in the file', async (platform, profile) => {
    const preview = await previewOf('acme', platform, profile);
    const response = await fetch(`${server.url}/v1/agent/config?platform=${platform}&profile=${profile}`, { headers: { Authorization: `Bearer ${acmeKey}` } });
    const { report, bytes } = await verified(response, acme.certificatePem!);
    expect(preview).toMatchObject({ source: 'local', missing: [] });
    expect({
      organizationId: preview.organizationId,
      serverUrl: preview.serverUrl,
      teamId: preview.teamId,
      bundleId: preview.bundleId,
      holdsEnrollmentSecret: preview.holdsEnrollmentSecret,
      carries: preview.carries,
      contents: preview.contents,
    }).toEqual({
      organizationId: report.organizationId,
      serverUrl: report.serverUrl,
      teamId: report.teamId,
      bundleId: report.bundleId,
      holdsEnrollmentSecret: report.holdsEnrollmentSecret,
      carries: foundSettings(report),
      contents: contentsOf(report, bytes),
    });
  });

  it.each(combinations)("of a replica, %s %s, names no id of its own: the file records the remote's", async (platform, profile) => {
    const replica = server.store.organizations.bySlug('replica')!;
    const preview = await previewOf('replica', platform, profile);
    const { report } = await verified(await fetch(`${server.url}/app/orgs/replica/agent-config?platform=${platform}&profile=${profile}`, {
      headers: { [consoleTokenHeader]: server.consoleToken },
    }));
    expect(report.organizationId).toBe(remote.orgs[0]!.organization.id);
    expect(report.organizationId).not.toBe(replica.id);
    expect(JSON.stringify(preview)).not.toContain(replica.id);
    // The values are the remote's, not known here; which settings that kind of file carries is.
    expect(preview).toMatchObject({ source: 'remote', organizationId: null, serverUrl: null, teamId: null, bundleId: null, contents: [], missing: [] });
    expect(preview.carries).toEqual(foundSettings(report));
    expect(preview.holdsEnrollmentSecret).toBe(report.holdsEnrollmentSecret);
  });
});
