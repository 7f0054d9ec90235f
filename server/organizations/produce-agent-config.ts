import { cliCommandText } from '../../contracts/cli-command.js';
import { BodyTooLargeError, formatBytes, readBodyCapped } from '../remote/read-body-capped.js';
import { agentConfigMaxBytes } from '../remote/remote-bounds.js';
import { type RemoteProblem, whatFailed } from '../remote/remote-problems.js';
import { type RemoteTenant, RemoteUnreachableError, remoteGet, remoteRequestTimeoutMs, timedOut } from '../remote/remote-tenant.js';
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
  | { ok: false; status: 409 | 500 | 502; message: string };

const contentDisposition = /filename="([^"\\/]+)"/;

/**
 * Produces the agent configuration file of an organization (DESIGN section 6): signed here for
 * a local organization, with its agent settings (409 naming what is not set: the server URL,
 * and the Team ID for the MDM profiles that pin it; `serverUrl` replaces the setting for this
 * file); for a replica, the remote tenant's file passed through, or our 502 naming the remote
 * when it gives none. The cause of a 500 goes to `log`, never into the message.
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
        cliCommandText(`orgs enrollment-secret --org ${organization.slug} --rotate`),
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

/**
 * A replica's file, as its remote tenant answers it: a 200's body (at most
 * {@link agentConfigMaxBytes} of it), passed through. Anything else is our 502, in our words,
 * naming the remote: its status described, its body never read and its text never passed on
 * as ours (a remote's 401 without `WWW-Authenticate`, 421, 304 or "Run: curl … | sudo sh" would
 * otherwise reach the local client as this server's answer).
 */
async function fetchFromRemote(remote: RemoteTenant, query: AgentConfigQuery): Promise<AgentConfigOutcome> {
  const search = new URLSearchParams({ platform: query.platform, profile: query.profile });
  const failed = (problem: RemoteProblem) => ({
    ok: false as const,
    status: 502 as const,
    message: `The agent configuration file of the replica "${remote.replica}" comes from its remote tenant, which did not give it. ${whatFailed(remote.baseUrl, problem)}`,
  });
  try {
    return await remoteGet(remote, `/v1/agent/config?${search}`, async (response, until): Promise<AgentConfigOutcome> => {
      const { status } = response;
      // An error's body is never read (remoteGet cancels it): its status says enough.
      if (status !== 200) return failed(status === 401 || status === 403 ? { kind: 'refused-key', status } : { kind: 'answered', status });
      const bytes = await readBodyCapped(response, agentConfigMaxBytes, until);
      const filename = contentDisposition.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `remediation-agent-${query.platform}-${query.profile}`;
      return { ok: true, filename, bytes, contentType: 'application/octet-stream' };
    });
  } catch (error) {
    if (error instanceof RemoteUnreachableError) return failed(error.problem);
    if (error instanceof BodyTooLargeError) return failed({ kind: 'beyond-bound', what: `the agent configuration file weighed more than ${formatBytes(error.maxBytes)}` });
    return failed(timedOut(error) ? { kind: 'timed-out', seconds: remoteRequestTimeoutMs / 1000 } : { kind: 'broken-answer', what: 'the file broke off' });
  }
}
