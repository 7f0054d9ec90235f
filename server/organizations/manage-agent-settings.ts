import {
  type AgentSettingsView,
  type UpdateAgentSettingsBody,
  bundleIdPattern,
  defaultAgentBundleId,
  demoAgentSettings,
  teamIdPattern,
  updateAgentSettingsBodySchema,
} from '../../contracts/console/agent-settings.js';
import type { FieldIssue } from '../../contracts/common.js';
import type { AgentConfigQuery } from '../../contracts/agent-config.js';
import { agentConfigCarries } from '../agent-config/file-contents.js';
import type { StoredAgentSettings } from '../store/records/agent-settings-records.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { isLoopbackAddress, isUnspecifiedAddress } from '../secrets/loopback-address.js';
import { OrganizationFieldsError } from './manage-organizations.js';

/** The settings an admin sets, by the name the API and the store give them. */
export type AgentSettingName = 'serverUrl' | 'teamId' | 'bundleId';

/** Bad values of an update, each with its field's name and message; nothing was saved (400, exit code 2). */
export class AgentSettingsFieldsError extends OrganizationFieldsError {}

/** The options of `orgs agent-settings` that set each setting, for the messages that name them. */
export const agentSettingOptions: Record<AgentSettingName, string> = {
  serverUrl: '--server-url',
  teamId: '--team-id',
  bundleId: '--bundle-id',
};

/**
 * Whether a URL's host (as `URL.hostname` writes it) is a loopback or unspecified address, or a
 * name under `localhost`: what agents on other machines can never reach, since the machine the
 * file is made on is not theirs. The URL parser writes every IPv4 form (0x7f.1, 2130706433) as
 * dotted decimal.
 */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return host.endsWith('.localhost') || isLoopbackAddress(host) || isUnspecifiedAddress(host);
}

/**
 * Checks a server URL, the setting's or one given for one file (`agent-config --server-url`):
 * http or https with a host, no credentials, query or fragment; https, or http for a host that
 * is not loopback; a loopback host only with `allowLoopback`.
 * @returns the problem's message, or undefined when the URL is good
 */
export function serverUrlProblem(value: string, allowLoopback: boolean): string | undefined {
  if (value.length > 2048 || /[\s\p{Cc}]/u.test(value)) return 'must be an http or https URL, without spaces, of at most 2048 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL, e.g. https://agents.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL (or http)';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password || url.search || url.hash) return 'must be the base URL agents reach, without user, password, query or fragment';
  if (isLoopbackHost(url.hostname) && !allowLoopback) {
    return `is a loopback address (${url.hostname}): agents on other machines would call themselves and never enroll; give the address they reach this server at`;
  }
  return undefined;
}

/** Whether a Team ID looks made up: one character repeated, or ascending runs (ABCDE12345, 0123456789). */
function looksLikePlaceholder(teamId: string): boolean {
  if (/^(.)\1+$/.test(teamId)) return true;
  const runs = teamId.match(/[A-Z]+|[0-9]+/g)!;
  return runs.length <= 2 && runs.every((run) => [...run].every((char, i) => i === 0 || char.charCodeAt(0) === run.charCodeAt(i - 1) + 1));
}

/** What an admin should know about stored settings that are allowed but doubtful. */
function settingWarnings(settings: StoredAgentSettings): string[] {
  const warnings: string[] = [];
  if (settings.serverUrl) {
    const url = new URL(settings.serverUrl);
    if (isLoopbackHost(url.hostname)) warnings.push(`The server URL is a loopback address (${url.hostname}): only an agent on this very machine reaches it.`);
    if (url.protocol === 'http:') warnings.push('The server URL is plain http: agents send the enrollment secret and their inventory unencrypted; use https outside a test network.');
  }
  if (settings.teamId && looksLikePlaceholder(settings.teamId)) {
    warnings.push(`The Team ID ${settings.teamId} looks like a placeholder: the privacy grant pins it, and grants nothing unless the agent is signed by that team.`);
  }
  return warnings;
}

/**
 * Whether the file of this platform and profile pins the Team ID, by the description the
 * generator makes it from: the macOS MDM profiles, whose privacy and login-item rules name the
 * agent's signature.
 */
export function pinsTeamId({ platform, profile }: AgentConfigQuery): boolean {
  return agentConfigCarries(platform, profile).includes('teamId');
}

/** An organization's stored settings as the console API answers them. */
export function agentSettingsView(organization: Organization, settings: StoredAgentSettings): AgentSettingsView {
  const missing: AgentSettingsView['missing'] = [];
  // A replica's files are its remote tenant's: nothing here is needed to get them.
  if (organization.kind === 'local') {
    if (!settings.serverUrl) missing.push('serverUrl');
    if (!settings.teamId) missing.push('teamId');
  }
  return {
    serverUrl: settings.serverUrl,
    teamId: settings.teamId,
    bundleId: settings.bundleId ?? defaultAgentBundleId,
    isDemo: organization.isDemo && settings.serverUrl === demoAgentSettings.serverUrl && settings.teamId === demoAgentSettings.teamId,
    warnings: settingWarnings(settings),
    missing,
  };
}

/** An organization's agent settings, as `GET /app/orgs/{slug}/agent-settings` answers them. */
export function readAgentSettings(store: Store, organization: Organization): AgentSettingsView {
  return agentSettingsView(organization, store.agentSettings.get(organization.rowId));
}

/** A given text, trimmed; an empty one clears the setting (null). */
const cleared = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());

/**
 * Checks an update (the body of `PUT /app/orgs/{slug}/agent-settings`, or what `orgs
 * agent-settings` was given) against the stored settings.
 * @returns the settings to store, or every bad field with its message
 */
function checkAgentSettingsUpdate(
  stored: StoredAgentSettings,
  body: unknown,
): { ok: true; settings: Omit<StoredAgentSettings, 'updatedAt'> } | { ok: false; issues: FieldIssue[] } {
  const parsed = updateAgentSettingsBodySchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) =>
        issue.code === 'unrecognized_keys'
          ? { field: issue.keys.join(', '), message: 'is not an agent setting' }
          : { field: String(issue.path[0] ?? 'body'), message: issue.path.length ? issue.message : 'must be a JSON object of agent settings' },
      ),
    };
  }
  const update: UpdateAgentSettingsBody = parsed.data;
  const issues: FieldIssue[] = [];
  const settings = { serverUrl: stored.serverUrl, teamId: stored.teamId, bundleId: stored.bundleId };
  if (update.serverUrl !== undefined) {
    settings.serverUrl = cleared(update.serverUrl);
    const problem = settings.serverUrl === null ? undefined : serverUrlProblem(settings.serverUrl, update.allowLoopback === true);
    if (problem) issues.push({ field: 'serverUrl', message: problem });
  }
  if (update.teamId !== undefined) {
    settings.teamId = cleared(update.teamId);
    if (settings.teamId !== null && !teamIdPattern.test(settings.teamId)) {
      issues.push({ field: 'teamId', message: 'must be the 10 characters of an Apple Developer Team ID: uppercase letters A–Z and digits 0–9' });
    }
  }
  if (update.bundleId !== undefined) {
    // Cleared, the agent's own bundle id applies.
    const bundleId = cleared(update.bundleId);
    settings.bundleId = bundleId === defaultAgentBundleId ? null : bundleId;
    if (bundleId !== null && (bundleId.length > 255 || !bundleIdPattern.test(bundleId))) {
      issues.push({ field: 'bundleId', message: 'must be a reverse-DNS bundle identifier of letters, digits and hyphens, e.g. com.example.agent' });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, settings };
}

/**
 * Applies an update to an organization's agent settings and answers them; with a bad field,
 * throws {@link AgentSettingsFieldsError} naming each one, and saves nothing.
 */
export function updateAgentSettings(store: Store, organization: Organization, body: unknown): AgentSettingsView {
  const checked = checkAgentSettingsUpdate(store.agentSettings.get(organization.rowId), body);
  if (!checked.ok) throw new AgentSettingsFieldsError(checked.issues);
  return agentSettingsView(organization, store.agentSettings.set(organization.rowId, checked.settings));
}

/** Gives the demo organization the demo's settings (contracts/console/agent-settings.ts). */
export function setDemoAgentSettings(store: Store, organization: Organization): void {
  store.agentSettings.set(organization.rowId, { ...demoAgentSettings, bundleId: null });
}

/**
 * The message of a file that cannot be made for want of settings (409, exit code 1): what is
 * missing, and the command that sets it (or the console's Agent configuration view).
 */
export function missingSettingsMessage(organization: Organization, missing: AgentSettingsView['missing']): string {
  const names = { serverUrl: 'server URL (the URL agents reach)', teamId: 'Team ID (the macOS agent’s signing team, which this profile pins)' };
  return (
    `The organization "${organization.slug}" has no ${missing.map((name) => names[name]).join(' and no ')} set: ` +
    `set ${missing.length > 1 ? 'them' : 'it'} in the console's Agent configuration view or with "${agentSettingsCommand(organization.slug, missing)}"`
  );
}

/** The command that sets the given settings of an organization, with placeholders for their values. */
export function agentSettingsCommand(slug: string, settings: AgentSettingsView['missing']): string {
  const values = { serverUrl: 'URL', teamId: 'ID' };
  return [`remediation-console orgs agent-settings --org ${slug}`, ...settings.map((name) => `${agentSettingOptions[name]} ${values[name]}`)].join(' ');
}
