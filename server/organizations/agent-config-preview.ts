import type { AgentConfigQuery } from '../../contracts/agent-config.js';
import { type AgentConfigPreview, defaultAgentBundleId } from '../../contracts/console/agent-settings.js';
import { agentConfigContents } from '../agent-config/file-contents.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { pinsTeamId } from './manage-agent-settings.js';

/**
 * What the file of a platform and profile will hold, before it is made (`GET
 * /app/orgs/{slug}/agent-config/preview`): the settings it carries, its payloads or entries,
 * whether the enrollment secret is inside, and what must be set first, by the rules
 * produceAgentConfig applies. A replica's file is its remote tenant's: its settings are not
 * known here, and nothing is missing. The platform/profile combination is checked before.
 */
export function previewAgentConfig(store: Store, organization: Organization, query: AgentConfigQuery): AgentConfigPreview {
  const { platform, profile } = query;
  const settings = store.agentSettings.get(organization.rowId);
  const bundleId = settings.bundleId ?? defaultAgentBundleId;
  const what = agentConfigContents(platform, profile, bundleId);
  const base = { platform, profile, organizationId: organization.id, ...what };
  if (organization.kind === 'replica') return { ...base, source: 'remote', serverUrl: null, teamId: null, bundleId: null, missing: [] };
  const missing: string[] = [];
  if (!settings.serverUrl) missing.push('serverUrl');
  if (pinsTeamId(profile) && !settings.teamId) missing.push('teamId');
  if (!organization.hasEnrollmentSecret) missing.push('enrollmentSecret');
  return { ...base, source: 'local', serverUrl: settings.serverUrl, teamId: settings.teamId, bundleId, missing };
}
