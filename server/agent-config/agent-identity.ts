/**
 * Who the agent is on each platform: the names that the generated files point at. The macOS
 * agent's bundle id and Team ID are each organization's agent settings; the rest is fixed here.
 */

/** The macOS agent as its code signature names it. */
export interface MacosAgentIdentity {
  /** The bundle identifier, also the agent's managed-preferences domain. */
  bundleId: string;
  /** The Apple Developer Team ID the agent is signed with. */
  teamId: string;
}

/**
 * The designated requirement of a Developer ID-signed agent, as `codesign -d -r-` prints it.
 * TCC grants access only to code that satisfies it, so a binary merely named like the agent, or
 * signed by another team, gets nothing.
 */
export function agentCodeRequirement({ bundleId, teamId }: MacosAgentIdentity): string {
  return (
    `identifier "${bundleId}" and anchor apple generic and ` +
    'certificate 1[field.1.2.840.113635.100.6.2.6] and certificate leaf[field.1.2.840.113635.100.6.1.13] and ' +
    `certificate leaf[subject.OU] = "${teamId}"`
  );
}

/** The Windows policy key the agent reads its settings from. */
export const windowsPolicyKey = 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\RemediationConsole\\Agent';

/** Where the Linux agent reads its configuration. */
export const linuxConfigPath = '/etc/remediation-console/agent.yaml';
