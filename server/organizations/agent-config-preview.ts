import type { AgentConfigQuery } from '../../contracts/agent-config.js';
import { type AgentConfigPreview, defaultAgentBundleId } from '../../contracts/console/agent-settings.js';
import { agentConfigContents, carriedSettings } from '../agent-config/file-contents.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { pinsTeamId } from './manage-agent-settings.js';

/**
 * What the file of a platform and profile will hold, before it is made (`GET
 * /app/orgs/{slug}/agent-config/preview`), read from the description the generator makes the file
 * from (agent-config/file-contents.ts): the settings it carries and their values (the others
 * null), its payloads or entries, whether the enrollment secret is inside, and what must be set
 * first, by the rules produceAgentConfig applies. The platform/profile combination is checked before.
 *
 * A replica's file is its remote tenant's, made with the remote's settings and recording the
 * remote's organization id and slug, none of which this store keeps: the preview says which
 * settings that kind of file carries, and gives no value, no id and no entry names (the remote's
 * bundle id names its macOS plist).
 */
export function previewAgentConfig(store: Store, organization: Organization, query: AgentConfigQuery): AgentConfigPreview {
  const { platform, profile } = query;
  if (organization.kind === 'replica') {
    // The bundle id only names a macOS plist, and the entry names are left out.
    const { carries, holdsEnrollmentSecret, needsUserApprovedMdm } = agentConfigContents(platform, profile, defaultAgentBundleId);
    const unknown = { organizationId: null, serverUrl: null, teamId: null, bundleId: null, contents: [] };
    return { platform, profile, source: 'remote', carries, holdsEnrollmentSecret, needsUserApprovedMdm, ...unknown, missing: [] };
  }
  const settings = store.agentSettings.get(organization.rowId);
  const bundleId = settings.bundleId ?? defaultAgentBundleId;
  const { carries, contents, holdsEnrollmentSecret, needsUserApprovedMdm } = agentConfigContents(platform, profile, bundleId);
  // The secret is never shown: whether the file holds it is enough.
  const carried = carriedSettings(carries, { serverUrl: settings.serverUrl, teamId: settings.teamId, bundleId, enrollmentSecret: null });
  // Every file needs the server URL (DESIGN section 6), the one that carries none too.
  const missing: string[] = [];
  if (!settings.serverUrl) missing.push('serverUrl');
  if (pinsTeamId(query) && !settings.teamId) missing.push('teamId');
  if (!organization.hasEnrollmentSecret) missing.push('enrollmentSecret');
  return {
    platform,
    profile,
    source: 'local',
    organizationId: organization.id,
    carries,
    serverUrl: carried.serverUrl ?? null,
    teamId: carried.teamId ?? null,
    bundleId: carried.bundleId ?? null,
    holdsEnrollmentSecret,
    contents,
    needsUserApprovedMdm,
    missing,
  };
}
