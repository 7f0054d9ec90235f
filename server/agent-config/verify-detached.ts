/**
 * Verification of a file signed beside it (a report and its `.p7s`): the detached CMS signature
 * over the file's exact bytes, by each of its signers (a report of several organizations has one
 * each), as `openssl cms -verify -binary` checks it.
 */
import { X509Certificate } from 'node:crypto';
import { verifyCmsSigners } from './cms-verifier.js';
import { AgentConfigVerificationError } from './errors.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

/** One signer of a file, and when its signature says it was signed. */
export interface DetachedSigner {
  signer: AgentConfigReport['signer'];
  /** ISO 8601; null where the signature carries no signing time. */
  signedAt: string | null;
}

/** Who signed a file: every signer, in the signature's order. */
export interface DetachedSignatureReport {
  signers: DetachedSigner[];
}

/**
 * Verifies `signature` (DER CMS SignedData, detached) over `content`, every signer of it; with
 * `certificatePem`, that certificate must be one of the signers, else each signer is the
 * certificate the signature carries for it.
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
  const verified = await verifyCmsSigners(signature, { label, detachedContent: content, expectedCertificate });
  return { signers: verified.signers.map(({ signer, signingTime }) => ({ signer: describeSigner(signer), signedAt: signingTime?.toISOString() ?? null })) };
}
