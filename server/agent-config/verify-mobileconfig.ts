/** Verification of a signed .mobileconfig: the CMS signature, then the profile it carries. */
import { parse as parsePlist } from 'plist';
import type { AgentProfile } from '../../contracts/enums.js';
import { verifyCms } from './cms-verifier.js';
import { payloadTypes, readProfileRecord } from './configuration-profile.js';
import { AgentConfigVerificationError } from './errors.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

const label = 'The profile';

/** The Team ID a Developer ID designated requirement pins, and the identifier it names. */
const requirementTeamId = /certificate leaf\[subject\.OU\] = "?([A-Z0-9]{10})"?/;
const requirementIdentifier = /^identifier "([^"]+)"/;

/**
 * Verifies a .mobileconfig's signature (against `expectedCertificate` when given, else the
 * embedded signer) and reads the record, settings and agent identity the profile carries.
 */
export async function verifyMobileconfig(bytes: Uint8Array, expectedCertificate: Buffer | undefined): Promise<AgentConfigReport> {
  const { content, signer } = await verifyCms(bytes, { label, ...(expectedCertificate ? { expectedCertificate } : {}) });
  const profile = readProfile(content);
  const fail = (why: string) => new AgentConfigVerificationError(`${label} is not a Remediation Console agent profile: ${why}`);
  if (profile.PayloadType !== payloadTypes.configuration) throw fail('its PayloadType is not Configuration');
  const payloads = profile.PayloadContent;
  if (!Array.isArray(payloads) || !payloads.every(isDict)) throw fail('it has no PayloadContent array of payloads');
  const record = readProfileRecord(typeof profile.PayloadDescription === 'string' ? profile.PayloadDescription : '');
  const { organizationId, configId, generatedAt, profile: profileName } = record;
  if (!organizationId || !configId || !generatedAt || !profileName) {
    throw fail('its PayloadDescription does not record its organization, configuration, generation time and profile');
  }
  if (profileName !== 'mdm-full' && profileName !== 'mdm-permissions') throw fail(`unknown profile "${profileName}"`);

  const identity = new AgentIdentityFound();
  const settings = readSettings(payloads, identity, fail);
  if (settings && (settings.OrganizationID !== organizationId || settings.ConfigID !== configId || settings.GeneratedAt !== generatedAt)) {
    throw fail('its settings payload names another organization, configuration or time than its description');
  }
  if ((profileName === 'mdm-full') !== (settings !== undefined)) {
    throw fail(`a ${profileName} profile ${settings ? 'must hold no' : 'lacks its'} agent settings payload`);
  }
  readPermissions(payloads, identity);
  return {
    kind: 'mobileconfig',
    platform: 'macos',
    profile: profileName as AgentProfile,
    organizationId,
    configId,
    generatedAt,
    serverUrl: typeof settings?.ServerURL === 'string' ? settings.ServerURL : null,
    teamId: identity.single('Team ID', identity.teamIds, fail),
    bundleId: identity.single('bundle id', identity.bundleIds, fail),
    holdsEnrollmentSecret: typeof settings?.EnrollmentSecret === 'string' && settings.EnrollmentSecret !== '',
    payloads: payloads.map((payload) => String(payload.PayloadType)),
    files: [],
    signer: describeSigner(signer),
  };
}

type Dict = Record<string, unknown>;
type Fail = (why: string) => AgentConfigVerificationError;

/** The Team IDs and bundle ids the payloads name; a sound profile names one of each. */
class AgentIdentityFound {
  readonly teamIds = new Set<string>();
  readonly bundleIds = new Set<string>();

  add(set: Set<string>, value: unknown): void {
    if (typeof value === 'string' && value) set.add(value);
  }

  single(what: string, set: Set<string>, fail: Fail): string | null {
    if (set.size > 1) throw fail(`its payloads name different ${what}s: ${[...set].join(', ')}`);
    return set.values().next().value ?? null;
  }
}

/** The agent's managed preferences (mdm-full): the one domain's forced settings. */
function readSettings(payloads: Dict[], identity: AgentIdentityFound, fail: Fail): Dict | undefined {
  const payload = payloads.find((candidate) => candidate.PayloadType === payloadTypes.managedPreferences);
  if (!payload) return undefined;
  const domains = isDict(payload.PayloadContent) ? Object.entries(payload.PayloadContent) : [];
  const [domain, value] = domains.length === 1 ? domains[0]! : [];
  const forced = isDict(value) && Array.isArray(value.Forced) ? (value.Forced as unknown[]) : [];
  const settings = forced.length === 1 && isDict(forced[0]) ? forced[0].mcx_preference_settings : undefined;
  if (!domain || !isDict(settings)) throw fail('its managed preferences are not one domain of forced settings');
  identity.add(identity.bundleIds, domain);
  return settings;
}

/** The bundle id and Team ID of the privacy, notification and login-item payloads. */
function readPermissions(payloads: Dict[], identity: AgentIdentityFound): void {
  const ofType = (type: string) => payloads.filter((payload) => payload.PayloadType === type);
  for (const payload of ofType(payloadTypes.privacyPreferences)) {
    const services = isDict(payload.Services) ? Object.values(payload.Services) : [];
    for (const entry of services.flat().filter(isDict)) {
      identity.add(identity.bundleIds, entry.Identifier);
      const requirement = typeof entry.CodeRequirement === 'string' ? entry.CodeRequirement : '';
      identity.add(identity.bundleIds, requirementIdentifier.exec(requirement)?.[1]);
      identity.add(identity.teamIds, requirementTeamId.exec(requirement)?.[1]);
    }
  }
  for (const payload of ofType(payloadTypes.notifications)) {
    const settings = Array.isArray(payload.NotificationSettings) ? payload.NotificationSettings.filter(isDict) : [];
    for (const entry of settings) identity.add(identity.bundleIds, entry.BundleIdentifier);
  }
  for (const payload of ofType(payloadTypes.loginItems)) {
    for (const rule of Array.isArray(payload.Rules) ? payload.Rules.filter(isDict) : []) {
      if (rule.RuleType === 'TeamIdentifier') identity.add(identity.teamIds, rule.RuleValue);
      if (rule.RuleType === 'BundleIdentifier') identity.add(identity.bundleIds, rule.RuleValue);
      identity.add(identity.teamIds, rule.TeamIdentifier);
    }
  }
}

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

function readProfile(content: Buffer): Dict {
  let parsed: unknown;
  try {
    parsed = parsePlist(content.toString('utf8'));
  } catch (error) {
    throw new AgentConfigVerificationError(`${label}'s signed content is not an XML property list: ${(error as Error).message}`);
  }
  if (!isDict(parsed)) throw new AgentConfigVerificationError(`${label}'s property list is not a dictionary`);
  return parsed;
}
