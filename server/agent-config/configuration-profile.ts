/**
 * The macOS configuration profile (.mobileconfig) of the MDM profiles, before signing: a top-level
 * `Configuration` holding the agent's managed preferences (mdm-full only) and the permission
 * payloads the agent needs (both). Every key is one Apple's profile schemas define (the
 * `apple/device-management` repository; checked by apple-schemas.test.ts). Payload identifiers are
 * stable, so installing a newer file replaces the older one; payload UUIDs are new each time, as
 * Apple requires of changed content.
 */
import { randomUUID } from 'node:crypto';
import { agentCodeRequirement, type MacosAgentIdentity } from './agent-identity.js';
import { type AgentSettings, type ConfigRecord, pascalCaseSettings } from './agent-settings.js';
import { type MdmProfile, type ProfilePayload, profilePayloadNames, profilePayloads } from './file-contents.js';
import { printableText } from './printable-text.js';

/** Payload types, as Apple names them. */
export const payloadTypes = {
  configuration: 'Configuration',
  /**
   * Managed preferences in Apple's MCX form: the documented payload for an app's custom settings
   * (what Profile Manager and MDM vendors' "custom settings" write), keyed by preference domain.
   */
  managedPreferences: 'com.apple.ManagedClient.preferences',
  privacyPreferences: 'com.apple.TCC.configuration-profile-policy',
  notifications: 'com.apple.notificationsettings',
  loginItems: 'com.apple.servicemanagement',
} as const;

/** The type of each payload of a profile. */
export const profilePayloadTypes: Record<ProfilePayload, string> = {
  settings: payloadTypes.managedPreferences,
  privacy: payloadTypes.privacyPreferences,
  notifications: payloadTypes.notifications,
  'login-items': payloadTypes.loginItems,
};

/**
 * What a profile is made from. The permissions-only profile gets the file's record alone, so no
 * setting, the enrollment secret least of all, can reach it.
 */
export type ConfigurationProfileInput = { organization: ProfileOrganization; agent: MacosAgentIdentity } & (
  | { profile: 'mdm-full'; settings: AgentSettings }
  | { profile: 'mdm-permissions'; record: ConfigRecord }
);

/** The organization as the profile names it. */
export interface ProfileOrganization {
  slug: string;
  name: string;
}

/** A property list dictionary. */
export type PlistDict = { [key: string]: PlistItem };
type PlistItem = string | number | boolean | PlistItem[] | PlistDict;

/**
 * The stable top-level PayloadIdentifier of a profile of an organization. It names the product,
 * not the agent's bundle id, so that a changed bundle id still replaces the installed profile.
 */
export function profileIdentifier(slug: string, profile: MdmProfile): string {
  return `com.remediationconsole.agent.${slug}.${profile}`;
}

/**
 * The labels of the record lines that end the profile's PayloadDescription. The top level may
 * hold only the keys of Apple's TopLevel schema, so the description is where a profile, the
 * permissions-only one too, records its organization, configuration, time and profile, readable
 * on the Mac's profile detail screen and by `verify`.
 */
export const profileRecordLabels = {
  organizationId: 'Organization',
  configId: 'Configuration',
  generatedAt: 'Generated',
  profile: 'Profile',
} as const;

/** A profile's record, as its PayloadDescription carries it. */
export type ProfileRecord = ConfigRecord & { profile: MdmProfile };

/** The record lines of a PayloadDescription. */
function recordLines(record: ProfileRecord): string[] {
  return (Object.keys(profileRecordLabels) as (keyof ProfileRecord)[]).map((key) => `${profileRecordLabels[key]}: ${record[key]}`);
}

/**
 * Reads the record lines of a PayloadDescription.
 * @returns each field found, by name; a missing line leaves its field out
 */
export function readProfileRecord(description: string): Partial<Record<keyof ProfileRecord, string>> {
  const found: Partial<Record<keyof ProfileRecord, string>> = {};
  for (const line of description.split('\n')) {
    for (const [key, label] of Object.entries(profileRecordLabels) as [keyof ProfileRecord, string][]) {
      if (line.startsWith(`${label}: `)) found[key] = line.slice(label.length + 2);
    }
  }
  return found;
}

/** The configuration profile as a plist dictionary. */
export function configurationProfile(input: ConfigurationProfileInput): PlistDict {
  const { profile, organization, agent } = input;
  const record: ConfigRecord = input.profile === 'mdm-full' ? input.settings : input.record;
  const organizationName = printableText(organization.name) || organization.slug;
  const identifier = profileIdentifier(organization.slug, profile);

  const content: Record<ProfilePayload, () => PlistDict> = {
    settings: () => {
      if (input.profile !== 'mdm-full') throw new Error('only mdm-full holds the agent settings');
      return {
        PayloadContent: { [agent.bundleId]: { Forced: [{ mcx_preference_settings: pascalCaseSettings(input.settings) }] } },
      };
    },
    privacy: () => ({
      Services: {
        SystemPolicyAllFiles: [
          {
            Allowed: true,
            IdentifierType: 'bundleID',
            Identifier: agent.bundleId,
            CodeRequirement: agentCodeRequirement(agent),
            StaticCode: false,
            Comment: 'The agent reads installed software and its configuration to find vulnerabilities.',
          },
        ],
      },
    }),
    notifications: () => ({
      NotificationSettings: [
        {
          BundleIdentifier: agent.bundleId,
          NotificationsEnabled: true,
          // 1: temporary banner, so a remediation notice is seen without piling up on screen.
          AlertType: 1,
          ShowInNotificationCenter: true,
          ShowInLockScreen: false,
          BadgesEnabled: true,
          SoundsEnabled: false,
          CriticalAlertEnabled: false,
        },
      ],
    }),
    'login-items': () => ({
      Rules: <PlistDict[]>[
        {
          RuleType: 'TeamIdentifier',
          RuleValue: agent.teamId,
          Comment: 'The agent and its helpers, by the Team ID they are signed with.',
        },
        {
          RuleType: 'BundleIdentifier',
          RuleValue: agent.bundleId,
          TeamIdentifier: agent.teamId,
          Comment: 'The agent itself, so that users cannot switch it off in Login Items.',
        },
      ],
    }),
  };

  const payloads = profilePayloads(profile).map(
    (payload): PlistDict => ({
      PayloadType: profilePayloadTypes[payload],
      PayloadIdentifier: `${identifier}.${payload}`,
      PayloadUUID: randomUUID().toUpperCase(),
      PayloadVersion: 1,
      PayloadDisplayName: profilePayloadNames[payload],
      ...content[payload](),
    }),
  );

  const isFull = profile === 'mdm-full';
  return {
    PayloadType: payloadTypes.configuration,
    PayloadVersion: 1,
    PayloadIdentifier: identifier,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: isFull
      ? `Remediation Console agent (${organizationName})`
      : `Remediation Console agent permissions (${organizationName})`,
    PayloadDescription: [
      isFull
        ? 'Configures the Remediation Console agent and grants it the permissions it needs.'
        : 'Grants the Remediation Console agent the permissions it needs; holds no agent settings.',
      ...recordLines({ ...record, profile }),
    ].join('\n'),
    PayloadOrganization: organizationName,
    PayloadScope: 'System',
    // 5: macOS. Keeps the profile off iPhones and iPads, where these payloads mean nothing.
    TargetDeviceType: 5,
    PayloadContent: payloads,
  };
}
