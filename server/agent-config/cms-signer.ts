/**
 * CMS (PKCS#7) SignedData signing with an organization's key, as Apple's tools sign
 * configuration profiles: SHA-256, signed attributes (content type, signing time, message digest),
 * the signer certificate included, one SignerInfo identified by issuer and serial number. A file
 * several organizations vouch for (a report of several) gets one SignerInfo and one certificate
 * each, as RFC 5652 5.1 allows: every signer signs the same content digest independently.
 */
import { createHash, createPrivateKey, type KeyObject, sign, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AgentConfigSigningError } from './errors.js';
import { oids, toArrayBuffer } from './pki-engine.js';

/** An organization's signing key and certificate, both PEM, as the store keeps them. */
export interface SignerPems {
  privateKeyPem: string;
  certificatePem: string;
}

/** A signer made ready once: parsing and importing a key costs more than a signature. */
interface PreparedSigner {
  key: KeyObject;
  certificate: pkijs.Certificate;
  validTo: Date;
}

/** Enough for every organization of a data directory, small enough to never matter. */
const maxCachedSigners = 32;
const preparedSigners = new Map<string, PreparedSigner>();

/**
 * The prepared signer for these PEMs, from the cache when they were seen before. The cache is
 * keyed by a hash of the PEMs, so a private key is never a map key.
 */
function prepareSigner(pems: SignerPems): PreparedSigner {
  const cacheKey = createHash('sha256').update(pems.privateKeyPem).update('\0').update(pems.certificatePem).digest('hex');
  const cached = preparedSigners.get(cacheKey);
  if (cached) {
    // Re-insertion keeps the map in least-recently-used order for the eviction below.
    preparedSigners.delete(cacheKey);
    preparedSigners.set(cacheKey, cached);
    return cached;
  }
  const prepared = importSigner(pems);
  preparedSigners.set(cacheKey, prepared);
  if (preparedSigners.size > maxCachedSigners) preparedSigners.delete(preparedSigners.keys().next().value!);
  return prepared;
}

function importSigner(pems: SignerPems): PreparedSigner {
  let x509: X509Certificate;
  let privateKey: KeyObject;
  try {
    x509 = new X509Certificate(pems.certificatePem);
  } catch (error) {
    throw new AgentConfigSigningError(`The signing certificate cannot be read: ${(error as Error).message}`);
  }
  try {
    privateKey = createPrivateKey(pems.privateKeyPem);
  } catch (error) {
    throw new AgentConfigSigningError(`The signing key cannot be read: ${(error as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') {
    throw new AgentConfigSigningError(`The signing key is ${privateKey.asymmetricKeyType ?? 'of an unknown type'}, not RSA`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new AgentConfigSigningError('The signing key does not belong to the signing certificate');
  }
  return { key: privateKey, certificate: new EncodedCertificate(x509.raw), validTo: new Date(x509.validTo) };
}

/**
 * A certificate that encodes as the ASN.1 it was read from. pkijs re-parses a certificate's TBS
 * part each time a SignedData holding it is encoded, which was a fifth of the signing time; a
 * signer's certificate never changes, so its parsed form is kept and reused.
 */
class EncodedCertificate extends pkijs.Certificate {
  private readonly encoded: asn1js.Sequence;

  constructor(der: Uint8Array) {
    const asn1 = asn1js.fromBER(toArrayBuffer(der));
    super({ schema: asn1.result });
    this.encoded = asn1.result as asn1js.Sequence;
  }

  override toSchema(): asn1js.Sequence {
    return this.encoded;
  }
}

/** How to sign: the content inside the signature (a .mobileconfig) or beside it (a .p7s). */
export interface CmsSignOptions {
  detached: boolean;
  signingTime: Date;
}

/**
 * Signs content as a DER CMS SignedData in a ContentInfo, eContentType id-data, by `signers`
 * (one, or several in order: one SignerInfo each, over the same content).
 * @throws AgentConfigSigningError when a key or certificate cannot be used or has expired
 */
export async function signCms(content: Uint8Array, signers: SignerPems | readonly SignerPems[], options: CmsSignOptions): Promise<Buffer> {
  const prepared = (Array.isArray(signers) ? signers : [signers as SignerPems]).map(prepareSigner);
  if (prepared.length === 0) throw new AgentConfigSigningError('Signing needs at least one signer');
  for (const signer of prepared) {
    if (options.signingTime > signer.validTo) {
      throw new AgentConfigSigningError(`The signing certificate expired on ${signer.validTo.toISOString()}`);
    }
  }
  const contentDigest = createHash('sha256').update(content).digest();
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256Algorithm()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: oids.data,
      ...(options.detached ? {} : { eContent: new asn1js.OctetString({ valueHex: toArrayBuffer(content) }) }),
    }),
    signerInfos: prepared.map((signer) => signerInfo(signer, contentDigest, options.signingTime)),
    certificates: prepared.map((signer) => signer.certificate),
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: oids.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

const sha256Algorithm = () => new pkijs.AlgorithmIdentifier({ algorithmId: oids.sha256, algorithmParams: new asn1js.Null() });

/** One signer's SignerInfo over the content of `contentDigest` (SHA-256), signed at `signingTime`. */
function signerInfo(signer: PreparedSigner, contentDigest: Buffer, signingTime: Date): pkijs.SignerInfo {
  const signedAttributes = sortedForDer([
    new pkijs.Attribute({ type: oids.contentTypeAttribute, values: [new asn1js.ObjectIdentifier({ value: oids.data })] }),
    new pkijs.Attribute({ type: oids.signingTimeAttribute, values: [signingTimeValue(signingTime)] }),
    new pkijs.Attribute({ type: oids.messageDigestAttribute, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(contentDigest) })] }),
  ]);
  // RFC 5652 5.4: the signature covers the DER of the signed attributes as a SET OF.
  const signedAttributesDer = new asn1js.Set({ value: signedAttributes.map((a) => a.toSchema()) }).toBER(false);
  let signature: Buffer;
  try {
    // Node's own RSA PKCS#1 v1.5 signing, synchronous: pkijs's sign() goes through WebCrypto's
    // thread pool, whose round trip costs more than the signature itself.
    signature = sign('sha256', new Uint8Array(signedAttributesDer), signer.key);
  } catch (error) {
    throw new AgentConfigSigningError(`Signing failed: ${(error as Error).message}`);
  }
  return new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({
      issuer: signer.certificate.issuer,
      serialNumber: signer.certificate.serialNumber,
    }),
    digestAlgorithm: sha256Algorithm(),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: signedAttributes }),
    // Apple's tools name the signature algorithm rsaEncryption (RFC 3370 2.2), the form every
    // CMS verifier, however old, accepts; the digest algorithm above gives the hash.
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: oids.rsaEncryption, algorithmParams: new asn1js.Null() }),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signature) }),
  });
}

/**
 * Signed attributes in DER order (SET OF sorted by encoding). Verifiers such as OpenSSL re-encode
 * the attributes as DER before checking the signature, so any other order would fail there.
 */
function sortedForDer(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((attribute) => ({
    attribute,
    der: Buffer.from(attribute.toSchema().toBER(false)),
  }));
  encoded.sort((a, b) => Buffer.compare(a.der, b.der));
  return encoded.map(({ attribute }) => attribute);
}

/** UTCTime until 2049 and GeneralizedTime after, as RFC 5652 requires of signingTime. */
function signingTimeValue(date: Date): asn1js.UTCTime | asn1js.GeneralizedTime {
  const whole = new Date(Math.floor(date.getTime() / 1000) * 1000);
  return whole.getUTCFullYear() < 2050
    ? new asn1js.UTCTime({ valueDate: whole })
    : new asn1js.GeneralizedTime({ valueDate: whole });
}
