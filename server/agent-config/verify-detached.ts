/**
 * Verification of a file signed beside it (a report and its `.p7s`): the detached CMS signature
 * over the file's exact bytes, by one signer, as `openssl cms -verify -binary` checks it.
 */
import { X509Certificate } from 'node:crypto';
import { verifyCms } from './cms-verifier.js';
import { AgentConfigVerificationError } from './errors.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

/** Who signed a file, and when the signature says it was signed. */
export interface DetachedSignatureReport {
  signer: AgentConfigReport['signer'];
  /** ISO 8601; null where the signature carries no signing time. */
  signedAt: string | null;
}

/**
 * Verifies `signature` (DER CMS SignedData, detached) over `content`; with `certificatePem`, the
 * signer must be that certificate, else the certificate the signature carries.
 * @throws AgentConfigVerificationError naming what is wrong: a changed byte, another signer, a broken signature
 */
export async function verifyDetachedSignature(content: Uint8Array, signature: Uint8Array, label: string, certificatePem?: string): Promise<DetachedSignatureReport> {
  let expectedCertificate: Buffer | undefined;
  if (certificatePem !== undefined) {
    try {
      expectedCertificate = Buffer.from(new X509Certificate(certificatePem).raw);
    } catch (error) {
      throw new AgentConfigVerificationError(`The given certificate cannot be read: ${(error as Error).message}`);
    }
  }
  const verified = await verifyCms(signature, { label, detachedContent: content, expectedCertificate });
  return { signer: describeSigner(verified.signer), signedAt: verified.signingTime?.toISOString() ?? null };
}
