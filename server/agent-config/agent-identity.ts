/**
 * Who the agent is on each platform: the names that the generated files point at. These must
 * match what the agent's installer and code signature use, so they live in one place.
 */

/** The agent's bundle identifier on macOS, and its managed-preferences domain. */
export const agentBundleId = 'com.remediationconsole.agent';

/**
 * The Apple Developer Team ID the agent is signed with. This is a placeholder of the valid format
 * (ten uppercase letters and digits): replace it with the real Team ID before the permission
 * payloads are used on real Macs, since TCC and login-item rules match the agent's signature.
 */
export const agentTeamId = 'ABCDE12345';

/**
 * The designated requirement of a Developer ID-signed agent, as `codesign -d -r-` prints it.
 * TCC grants access only to code that satisfies it, so a binary merely named like the agent
 * gets nothing.
 */
export const agentCodeRequirement =
  `identifier "${agentBundleId}" and anchor apple generic and ` +
  'certificate 1[field.1.2.840.113635.100.6.2.6] and certificate leaf[field.1.2.840.113635.100.6.1.13] and ' +
  `certificate leaf[subject.OU] = "${agentTeamId}"`;

/** The Windows policy key the agent reads its settings from. */
export const windowsPolicyKey = 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\RemediationConsole\\Agent';

/** Where the Linux agent reads its configuration. */
export const linuxConfigPath = '/etc/remediation-console/agent.yaml';
