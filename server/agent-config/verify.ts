/**
 * Verification of agent configuration files (the `verify` command, and tests): detects a
 * .mobileconfig or a configuration ZIP, verifies every signature, and reports what it holds.
 */
import { X509Certificate } from 'node:crypto';
import { parseSignedData } from './cms-verifier.js';
import { AgentConfigVerificationError } from './errors.js';
import type { AgentConfigReport } from './verify-report.js';
import { verifyMobileconfig } from './verify-mobileconfig.js';
import { verifyConfigZip } from './verify-zip.js';

export type { AgentConfigReport } from './verify-report.js';

/** What to verify a file against. */
export interface VerifyAgentConfigOptions {
  /**
   * The organization's certificate (PEM): every signature must be by exactly this certificate.
   * Without it, the certificate the file carries must have made every signature, which proves
   * integrity but not who signed.
   */
  certificatePem?: string;
}

/**
 * Verifies a generated agent configuration file: for a .mobileconfig the CMS signature over the
 * attached profile; for a ZIP each file's detached signature; in both the content digest, the
 * signature and the signer.
 * @throws AgentConfigVerificationError for an unparseable file, a changed byte, a bad signature or
 *   a signer other than the expected certificate
 */
export async function verifyAgentConfig(bytes: Buffer, options: VerifyAgentConfigOptions = {}): Promise<AgentConfigReport> {
  const expectedCertificate = options.certificatePem === undefined ? undefined : readExpectedCertificate(options.certificatePem);
  switch (detectKind(bytes)) {
    case 'zip':
      return verifyConfigZip(bytes, expectedCertificate);
    case 'mobileconfig':
      return verifyMobileconfig(bytes, expectedCertificate);
  }
}

/**
 * The XML plist a .mobileconfig carries, as text, WITHOUT verifying its signature (use
 * {@link verifyAgentConfig} for that): for showing or diffing a profile.
 * @throws AgentConfigVerificationError when the bytes are not a CMS SignedData with attached content
 */
export function extractProfile(bytes: Buffer): string {
  const { content } = parseSignedData(bytes, 'The file');
  if (!content) throw new AgentConfigVerificationError('The file is a detached signature: it carries no profile');
  return content.toString('utf8');
}

function detectKind(bytes: Buffer): 'zip' | 'mobileconfig' {
  // A local file header, or the end record of an empty archive.
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05)) return 'zip';
  // A DER SEQUENCE: what every CMS ContentInfo starts with.
  if (bytes.length >= 2 && bytes[0] === 0x30) return 'mobileconfig';
  throw new AgentConfigVerificationError('The file is neither a signed .mobileconfig nor a configuration ZIP');
}

function readExpectedCertificate(pem: string): Buffer {
  try {
    return Buffer.from(new X509Certificate(pem).raw);
  } catch (error) {
    throw new AgentConfigVerificationError(`The given certificate cannot be read: ${(error as Error).message}`);
  }
}
