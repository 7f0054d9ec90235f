import { type RemoteTenant, RemoteUnreachableError, remoteGet } from '../remote/remote-tenant.js';
import type { AgentConfigQuery } from '../../contracts/agent-config.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { defaultAgentBundleId } from '../../contracts/console/agent-settings.js';
import { missingSettingsMessage, pinsTeamId } from './manage-agent-settings.js';
import { readEnrollmentSecret, readRemoteTenant, readSigner } from './manage-organizations.js';

/** A signed file, or why there is none, with the HTTP status of DESIGN section 3. */
export type AgentConfigOutcome =
  | { ok: true; filename: string; bytes: Buffer; contentType: string }
  | { ok: false; status: 409 | 500 | 502 | number; message: string };

const contentDisposition = /filename="([^"\\/]+)"/;

/**
 * Produces the agent configuration file of an organization (DESIGN section 6): signed here for
 * a local organization, with its agent settings (409 naming what is not set: the server URL,
 * and the Team ID for the MDM profiles that pin it; `serverUrl` replaces the setting for this
 * file); for a replica, the remote tenant's answer, file or error, passed through. The cause of
 * a 500 goes to `log`, never into the message.
 */
export async function produceAgentConfig(
  store: Store,
  sealer: Sealer,
  organization: Organization,
  query: AgentConfigQuery,
  options: { serverUrl?: string; log: (message: string, error: unknown) => void },
): Promise<AgentConfigOutcome> {
  if (organization.kind === 'replica') {
    return fetchFromRemote(readRemoteTenant(store, sealer, organization)!, query);
  }
  const enrollmentSecret = readEnrollmentSecret(store, sealer, organization);
  if (!enrollmentSecret) {
    return {
      ok: false,
      status: 409,
      message:
        `The organization "${organization.slug}" has no enrollment secret configured: set one with ` +
        `"remediation-console orgs enrollment-secret --org ${organization.slug} --rotate"`,
    };
  }
  const settings = store.agentSettings.get(organization.rowId);
  const serverUrl = options.serverUrl ?? settings.serverUrl;
  const missing = [...(serverUrl ? [] : ['serverUrl' as const]), ...(pinsTeamId(query) && !settings.teamId ? ['teamId' as const] : [])];
  if (!serverUrl || missing.length > 0) return { ok: false, status: 409, message: missingSettingsMessage(organization, missing) };
  try {
    const signer = readSigner(store, sealer, organization);
    if (!signer) throw new Error(`organization ${organization.slug} has no signing key`);
    // Loaded at the first file: `serve` starts without the signing modules.
    const { generateAgentConfig } = await import('../agent-config/index.js');
    const file = await generateAgentConfig({
      platform: query.platform,
      profile: query.profile,
      organization: { id: organization.id, slug: organization.slug, name: organization.name },
      enrollmentSecret,
      serverUrl,
      teamId: settings.teamId,
      bundleId: settings.bundleId ?? defaultAgentBundleId,
      signer,
    });
    return { ok: true, filename: file.filename, bytes: file.bytes, contentType: 'application/octet-stream' };
  } catch (error) {
    options.log(`Signing an agent configuration for ${organization.slug} failed:`, error);
    return { ok: false, status: 500, message: 'The agent configuration could not be signed' };
  }
}

async function fetchFromRemote(remote: RemoteTenant, query: AgentConfigQuery): Promise<AgentConfigOutcome> {
  const search = new URLSearchParams({ platform: query.platform, profile: query.profile });
  try {
    const response = await remoteGet(remote, `/v1/agent/config?${search}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.ok) {
      const filename = contentDisposition.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `remediation-agent-${query.platform}-${query.profile}`;
      return { ok: true, filename, bytes, contentType: 'application/octet-stream' };
    }
    let message = `The remote tenant answered ${response.status}`;
    try {
      const body = JSON.parse(bytes.toString()) as { error?: unknown };
      if (typeof body.error === 'string') message = body.error;
    } catch {
      // not the API's error body: keep the generic message
    }
    return { ok: false, status: response.status, message };
  } catch (error) {
    if (error instanceof RemoteUnreachableError) return { ok: false, status: 502, message: error.message };
    throw error;
  }
}
