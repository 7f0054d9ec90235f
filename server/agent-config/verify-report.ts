/** What verification tells about a file; shared by the .mobileconfig and ZIP verifiers. */
import type { X509Certificate } from 'node:crypto';
import type { AgentPlatform, AgentProfile } from '../../contracts/enums.js';

/** What a verified agent configuration file holds. */
export interface AgentConfigReport {
  kind: 'mobileconfig' | 'zip';
  platform: AgentPlatform;
  profile: AgentProfile;
  organizationId: string;
  configId: string;
  /** ISO 8601, as recorded in the file. */
  generatedAt: string;
  /** The URL the file tells agents to reach; null for mdm-permissions, which holds no settings. */
  serverUrl: string | null;
  /** The Team ID the code requirement and login-item rules pin; null where the file has none (a ZIP). */
  teamId: string | null;
  /** The macOS agent's bundle id the file names (preference domain, permissions); null on Windows and Linux. */
  bundleId: string | null;
  /** Whether the file carries the enrollment secret, and must be handled as a secret. */
  holdsEnrollmentSecret: boolean;
  /** The PayloadTypes of a profile's payloads, in order; empty for a ZIP. */
  payloads: string[];
  /** The entries of a ZIP, in order; empty for a profile. */
  files: string[];
  /** The certificate every signature was verified against. */
  signer: { subject: string; fingerprint: string };
}

/** The signer as a report shows it: `O=..., CN=...` and the SHA-256 fingerprint. */
export function describeSigner(certificate: X509Certificate): AgentConfigReport['signer'] {
  return { subject: certificate.subject.split('\n').join(', '), fingerprint: certificate.fingerprint256 };
}
