/**
 * The macOS configuration profile (.mobileconfig) of the MDM profiles, before signing: a top-level
 * `Configuration` payload holding the agent's managed settings (mdm-full only) and the permission
 * payloads the agent needs (both). Payload identifiers are stable, so installing a newer file
 * replaces the older one; payload UUIDs are new each time, as Apple requires of changed content.
 */
import { randomUUID } from 'node:crypto';
import { agentBundleId, agentCodeRequirement, agentTeamId } from './agent-identity.js';
import { type AgentSettings, type ConfigRecord, pascalCaseSettings } from './agent-settings.js';
import { printableText } from './printable-text.js';

/** The two profiles that are configuration profiles. */
export type MdmProfile = 'mdm-full' | 'mdm-permissions';

/**
 * Top-level keys of our own that record the file's origin. macOS ignores unknown top-level keys;
 * they let `verify` (and an admin reading the profile) find the organization, config id and time
 * even in mdm-permissions, which has no settings payload.
 */
export const profileRecordKeys = {
  organizationId: 'RemediationConsoleOrganizationID',
  configId: 'RemediationConsoleConfigID',
  generatedAt: 'RemediationConsoleGeneratedAt',
  profile: 'RemediationConsoleProfile',
} as const;

/** Payload types, as Apple names them. */
export const payloadTypes = {
  configuration: 'Configuration',
  /** A custom-settings payload's type is the preference domain it manages. */
  agentSettings: agentBundleId,
  privacyPreferences: 'com.apple.TCC.configuration-profile-policy',
  notifications: 'com.apple.notificationsettings',
  loginItems: 'com.apple.servicemanagement',
} as const;

/**
 * What a profile is made from. The permissions-only profile gets the file's record alone, so no
 * setting, the enrollment secret least of all, can reach it.
 */
export type ConfigurationProfileInput =
  | { profile: 'mdm-full'; organization: ProfileOrganization; settings: AgentSettings }
  | { profile: 'mdm-permissions'; organization: ProfileOrganization; record: ConfigRecord };

/** The organization as the profile names it. */
export interface ProfileOrganization {
  slug: string;
  name: string;
}

type PlistDict = { [key: string]: PlistItem };
type PlistItem = string | number | boolean | PlistItem[] | PlistDict;

/** The stable top-level PayloadIdentifier of a profile of an organization. */
export function profileIdentifier(slug: string, profile: MdmProfile): string {
  return `${agentBundleId}.${slug}.${profile}`;
}

/** The configuration profile as a plist dictionary. */
export function configurationProfile(input: ConfigurationProfileInput): PlistDict {
  const { profile, organization } = input;
  const record: ConfigRecord = input.profile === 'mdm-full' ? input.settings : input.record;
  const organizationName = printableText(organization.name) || organization.slug;
  const identifier = profileIdentifier(organization.slug, profile);
  const payload = (type: string, suffix: string, displayName: string, content: PlistDict): PlistDict => ({
    PayloadType: type,
    PayloadIdentifier: `${identifier}.${suffix}`,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadVersion: 1,
    PayloadDisplayName: displayName,
    ...content,
  });

  const payloads: PlistDict[] = [];
  if (input.profile === 'mdm-full') {
    payloads.push(
      payload(payloadTypes.agentSettings, 'settings', 'Remediation Console agent settings', pascalCaseSettings(input.settings)),
    );
  }
  payloads.push(
    payload(payloadTypes.privacyPreferences, 'privacy', 'Remediation Console agent: full disk access', {
      Services: {
        SystemPolicyAllFiles: [
          {
            Allowed: true,
            IdentifierType: 'bundleID',
            Identifier: agentBundleId,
            CodeRequirement: agentCodeRequirement,
            StaticCode: false,
            Comment: 'The agent reads installed software and its configuration to find vulnerabilities.',
          },
        ],
      },
    }),
    payload(payloadTypes.notifications, 'notifications', 'Remediation Console agent: notifications', {
      NotificationSettings: [
        {
          BundleIdentifier: agentBundleId,
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
    payload(payloadTypes.loginItems, 'login-items', 'Remediation Console agent: background item', {
      Rules: [
        {
          RuleType: 'TeamIdentifier',
          RuleValue: agentTeamId,
          Comment: 'The agent and its helpers, by the Team ID they are signed with.',
        },
        {
          RuleType: 'BundleIdentifier',
          RuleValue: agentBundleId,
          TeamIdentifier: agentTeamId,
          Comment: 'The agent itself, so that users cannot switch it off in Login Items.',
        },
      ],
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
    PayloadDescription:
      (isFull
        ? 'Configures the Remediation Console agent and grants it the permissions it needs. '
        : 'Grants the Remediation Console agent the permissions it needs; holds no agent settings. ') +
      `Organization ${record.organizationId}, configuration ${record.configId}, generated ${record.generatedAt}.`,
    PayloadOrganization: organizationName,
    PayloadScope: 'System',
    // 5: macOS. Keeps the profile off iPhones and iPads, where these payloads mean nothing.
    TargetDeviceType: 5,
    [profileRecordKeys.organizationId]: record.organizationId,
    [profileRecordKeys.configId]: record.configId,
    [profileRecordKeys.generatedAt]: record.generatedAt,
    [profileRecordKeys.profile]: profile,
    PayloadContent: payloads,
  };
}
