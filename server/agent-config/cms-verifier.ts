/**
 * Verification of one CMS SignedData (a .mobileconfig or a detached .p7s): the content digest,
 * the signature, and who signed it. Every failure is an {@link AgentConfigVerificationError}
 * whose message names the file it is about.
 */
import { X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { maxReportOrganizations } from '../../contracts/console/reports.js';
import { AgentConfigVerificationError } from './errors.js';
import { oids, pkiEngine, toArrayBuffer } from './pki-engine.js';

/** A parsed SignedData with its content (attached content only; detached content is the caller's). */
export interface ParsedSignedData {
  signedData: pkijs.SignedData;
  /** The encapsulated content, when the signature carries it. */
  content: Buffer | undefined;
}

/**
 * Parses DER (or BER) as a ContentInfo holding a SignedData with id-data content, without
 * verifying anything.
 * @param label names the file in error messages
 */
export function parseSignedData(cms: Uint8Array, label: string): ParsedSignedData {
  const unparseable = (why: string) => new AgentConfigVerificationError(`${label} is not a CMS signed file: ${why}`);
  const asn1 = asn1js.fromBER(cms);
  if (asn1.offset === -1 || asn1.result.error) throw unparseable('it is not valid ASN.1');
  // Bytes after the structure would be read by nobody and vouched for by nothing.
  if (asn1.offset !== cms.byteLength) throw unparseable('there are bytes after the signed data');
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = new pkijs.ContentInfo({ schema: asn1.result });
    if (contentInfo.contentType !== oids.signedData) throw new Error(`its content type is ${contentInfo.contentType}, not signed data`);
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    throw unparseable((error as Error).message || 'its structure is not CMS SignedData');
  }
  if (signedData.encapContentInfo.eContentType !== oids.data) {
    throw unparseable(`the signed content type is ${signedData.encapContentInfo.eContentType}, not data`);
  }
  const eContent = signedData.encapContentInfo.eContent;
  return { signedData, content: eContent ? Buffer.from(eContent.getValue()) : undefined };
}

/** What to check a signature against. */
export interface VerifyCmsOptions {
  /** Names the file in error messages, e.g. `agent.yaml.p7s`. */
  label: string;
  /** The signed content of a detached signature; absent for an attached one. */
  detachedContent?: Uint8Array;
  /**
   * The certificate (DER) that must have signed it (one of its signers, where it has several).
   * Absent: the certificates embedded in the signature must have signed it, and a self-issued
   * one must carry a valid self-signature.
   */
  expectedCertificate?: Uint8Array;
}

/** A verified signer: its certificate, and when it says it signed. */
export interface VerifiedSigner {
  signer: X509Certificate;
  /** The signed signing-time attribute; undefined where the signature carries none. */
  signingTime: Date | undefined;
}

/** A verified signature: its content, its signer, and when the signer says it signed. */
export interface VerifiedCms extends VerifiedSigner {
  content: Buffer;
}

/** A verified signature of one or more signers, in the signature's order. */
export interface VerifiedCmsSigners {
  content: Buffer;
  signers: VerifiedSigner[];
}

const acceptedDigests = new Set<string>([oids.sha256, oids.sha384, oids.sha512]);

/** The most signers a file made here has (one per organization of a report): a bound on untrusted input. */
const maxSigners = maxReportOrganizations;

/**
 * Verifies a CMS SignedData of one signer: parses it, checks its signer is the expected
 * certificate (or the embedded one), and checks the message digest and the signature.
 * @throws AgentConfigVerificationError naming the file and what is wrong with it
 */
export async function verifyCms(cms: Uint8Array, options: VerifyCmsOptions): Promise<VerifiedCms> {
  const { content, signers } = await verifyCmsSigners(cms, options, { oneSigner: true });
  return { content, ...signers[0]! };
}

/**
 * Verifies a CMS SignedData and every one of its signers (a report of several organizations has
 * one each): each SignerInfo's digest and signature, by its own certificate, embedded exactly
 * once; with `expectedCertificate`, that certificate must be one of them.
 * @throws AgentConfigVerificationError naming the file and what is wrong with it
 */
export async function verifyCmsSigners(cms: Uint8Array, options: VerifyCmsOptions, { oneSigner = false } = {}): Promise<VerifiedCmsSigners> {
  const { label } = options;
  const fail = (why: string) => new AgentConfigVerificationError(`${label}: ${why}`);
  const { signedData, content: attached } = parseSignedData(cms, label);

  if (options.detachedContent && attached) throw fail('expected a detached signature, but the signature carries content');
  if (!options.detachedContent && !attached) throw fail('the signature carries no content');
  const content = attached ?? Buffer.from(options.detachedContent!);

  const { signerInfos } = signedData;
  if (oneSigner ? signerInfos.length !== 1 : signerInfos.length === 0 || signerInfos.length > maxSigners) {
    throw fail(oneSigner ? `expected one signer, found ${signerInfos.length}` : `expected 1 to ${maxSigners} signers, found ${signerInfos.length}`);
  }
  const originalCertificates = signedData.certificates ?? [];
  const expected = options.expectedCertificate ? pkijs.Certificate.fromBER(toArrayBuffer(options.expectedCertificate)) : undefined;
  const identifies = (certificate: pkijs.Certificate, sid: pkijs.IssuerAndSerialNumber) =>
    certificate.issuer.isEqual(sid.issuer) && certificate.serialNumber.isEqual(sid.serialNumber);

  // Each signer's certificate (DER): the expected one for the signer it identifies, else the one embedded.
  const signerDers: Buffer[] = [];
  for (const signerInfo of signerInfos) {
    checkSignerInfo(signerInfo, fail);
    const sid = signerInfo.sid as pkijs.IssuerAndSerialNumber;
    let signerDer: Buffer;
    if (expected && (oneSigner || identifies(expected, sid))) {
      if (!identifies(expected, sid)) throw fail('signed by a different certificate than the expected one');
      signerDer = Buffer.from(options.expectedCertificate!);
    } else {
      const embedded = originalCertificates.find((certificate): certificate is pkijs.Certificate => certificate instanceof pkijs.Certificate && identifies(certificate, sid));
      if (!embedded) throw fail('the signature does not include its signer certificate');
      signerDer = Buffer.from(embedded.toSchema().toBER(false));
    }
    if (signerDers.some((der) => der.equals(signerDer))) throw fail('the same certificate signs twice');
    signerDers.push(signerDer);
  }
  if (expected && !oneSigner && !signerInfos.some((signerInfo) => identifies(expected, signerInfo.sid as pkijs.IssuerAndSerialNumber))) {
    throw fail('the expected certificate is not one of its signers');
  }

  // Files made here carry exactly their signers' certificates; anything else in that set is
  // either tampering (a changed byte makes it another certificate) or not our file.
  for (const certificate of originalCertificates) {
    if (!(certificate instanceof pkijs.Certificate) || !signerDers.some((der) => Buffer.from(certificate.toSchema().toBER(false)).equals(der))) {
      throw fail(
        options.expectedCertificate && oneSigner
          ? 'the certificate in the signature differs from the expected certificate'
          : "the signature carries a certificate other than its signers'",
      );
    }
  }
  // Verify with the signers' certificates alone (the expected one where given), whatever else the file carries.
  signedData.certificates = signerDers.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));

  const signers: VerifiedSigner[] = [];
  for (const [index, signerInfo] of signerInfos.entries()) {
    const signer = readCertificate(signerDers[index]!, label);
    const isExpected = options.expectedCertificate !== undefined && signerDers[index]!.equals(Buffer.from(options.expectedCertificate));
    // Self-issued (as organizations' certificates are): its own signature proves it unaltered.
    // A CA-issued one could only be checked against its CA, which is not this module's business.
    if (!isExpected && signer.subject === signer.issuer && !signer.verify(signer.publicKey)) {
      throw fail('the self-signed signer certificate has been altered (its own signature does not verify)');
    }
    let result: pkijs.SignedDataVerifyResult;
    try {
      result = await signedData.verify(
        { signer: index, data: options.detachedContent ? toArrayBuffer(options.detachedContent) : undefined, checkChain: false, extendedMode: true },
        pkiEngine,
      );
    } catch (error) {
      throw fail(describeFailure(error));
    }
    if (!result.signatureVerified) throw fail(describeFailure(result));
    const signingTime = signerInfo.signedAttrs?.attributes.find((a) => a.type === oids.signingTimeAttribute)?.values[0];
    signers.push({ signer, signingTime: signingTime instanceof asn1js.UTCTime ? signingTime.toDate() : undefined });
  }
  return { content, signers };
}

/** A SignerInfo's algorithm, identifier and content type, as files made here have them. */
function checkSignerInfo(signerInfo: pkijs.SignerInfo, fail: (why: string) => AgentConfigVerificationError): void {
  if (!acceptedDigests.has(signerInfo.digestAlgorithm.algorithmId)) {
    throw fail(`the digest algorithm ${signerInfo.digestAlgorithm.algorithmId} is not SHA-256, SHA-384 or SHA-512`);
  }
  if (!(signerInfo.sid instanceof pkijs.IssuerAndSerialNumber)) {
    throw fail('the signer is not identified by issuer and serial number');
  }
  const contentTypeAttribute = signerInfo.signedAttrs?.attributes.find((a) => a.type === oids.contentTypeAttribute);
  const signedContentType = contentTypeAttribute?.values[0];
  if (
    contentTypeAttribute &&
    !(signedContentType instanceof asn1js.ObjectIdentifier && signedContentType.getValue() === oids.data)
  ) {
    // RFC 5652 5.6: the signed content-type attribute must name the content type that was signed.
    throw fail('the signed content type attribute does not match the content');
  }
}

function readCertificate(der: Buffer, label: string): X509Certificate {
  try {
    return new X509Certificate(der);
  } catch (error) {
    throw new AgentConfigVerificationError(`${label}: the signer certificate cannot be read: ${(error as Error).message}`);
  }
}

/** pkijs's reasons, in words for an admin: a digest mismatch means the content was changed. */
function describeFailure(outcome: unknown): string {
  const message = outcome instanceof Object && 'message' in outcome ? String(outcome.message) : String(outcome);
  if (/message digest/i.test(message)) return 'the content does not match its signature (it was changed after signing)';
  if (/signer certificate/i.test(message)) return 'signed by a different certificate than the expected one';
  if (!message) return "the signature does not verify with the signer's key (the signature or the signed attributes were changed)";
  return `the signature is not valid (${message})`;
}
