/**
 * An organization's signing identity: a new RSA key and a self-signed X.509 certificate that
 * every agent configuration file of the organization is signed with (DESIGN section 6).
 */
import { createHash, generateKeyPair, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { printableText } from './printable-text.js';
import { derToPem, oids, pkiEngine, rsaSigningAlgorithm, toArrayBuffer } from './pki-engine.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/** The organization a signing identity is made for. */
export interface SigningIdentityOrganization {
  /** The organization's uuid. */
  id: string;
  slug: string;
  /** The display name; it becomes the certificate's O and part of its CN. */
  name: string;
}

/** A private key (PKCS#8 PEM) and its self-signed certificate (PEM). */
export interface SigningIdentity {
  privateKeyPem: string;
  certificatePem: string;
}

/** RFC 5280's upper bound of CN and O, which strict parsers enforce. */
const maxNameAttributeLength = 64;
/** Device clocks run a little behind: a certificate made a minute ago must already be valid there. */
const clockSkewMs = 60 * 60 * 1000;
const validityYears = 10;

/**
 * Creates a new RSA-2048 key pair and a self-signed certificate for the organization: subject
 * `CN=<name> agent configuration signing, O=<name>`, a random 127-bit serial, valid for ten years
 * from now, key usage digitalSignature, extended key usage emailProtection and codeSigning, and a
 * subject key identifier. See README.md for why RSA with SHA-256.
 */
export async function createSigningIdentity(org: SigningIdentityOrganization): Promise<SigningIdentity> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signingKey = await webcrypto.subtle.importKey(
    'pkcs8',
    privateKey.export({ type: 'pkcs8', format: 'der' }),
    rsaSigningAlgorithm,
    false,
    ['sign'],
  );

  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(randomSerial()) });
  const name = subjectName(displayName(org));
  certificate.subject = name;
  certificate.issuer = name;
  const now = Date.now();
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + validityYears);
  certificate.notBefore = certificateTime(new Date(now - clockSkewMs));
  certificate.notAfter = certificateTime(notAfter);
  certificate.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(publicKey.export({ type: 'spki', format: 'der' }));
  certificate.extensions = extensions(certificate.subjectPublicKeyInfo);

  await certificate.sign(signingKey, 'SHA-256', pkiEngine);
  const certificatePem = derToPem(new Uint8Array(certificate.toSchema(true).toBER(false)), 'CERTIFICATE');
  // Parsing it back with OpenSSL (through Node) catches an encoding that other tools would refuse.
  new X509Certificate(certificatePem);
  return { privateKeyPem, certificatePem };
}

/**
 * The SHA-256 fingerprint of a PEM certificate as the console shows it and `openssl x509
 * -fingerprint -sha256` prints it: uppercase hex pairs separated by colons.
 */
export function certificateFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

function extensions(publicKeyInfo: pkijs.PublicKeyInfo): pkijs.Extension[] {
  // KeyUsage is a named bit list: bit 0 (digitalSignature) is the top bit of the first byte.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0x80]).buffer, unusedBits: 7 });
  const subjectKeyId = createHash('sha1').update(publicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest();
  return [
    new pkijs.Extension({
      extnID: oids.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({ extnID: oids.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
    new pkijs.Extension({
      extnID: oids.extendedKeyUsage,
      critical: false,
      // emailProtection is the purpose `openssl cms -verify` checks; codeSigning says what it is for.
      extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [oids.emailProtection, oids.codeSigning] }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: oids.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: toArrayBuffer(subjectKeyId) }).toBER(false),
    }),
  ];
}

/** A positive, non-zero 16-byte serial: random, as CAs must since serial prediction attacks. */
function randomSerial(): Uint8Array {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  return serial;
}

/** UTCTime until 2049, GeneralizedTime from 2050 on, as RFC 5280 requires. */
function certificateTime(date: Date): pkijs.Time {
  return new pkijs.Time({ type: date.getUTCFullYear() < 2050 ? pkijs.TimeType.UTCTime : pkijs.TimeType.GeneralizedTime, value: date });
}

/**
 * `O=<name>, CN=<name> agent configuration signing` as two RDNs. pkijs would encode attributes
 * pushed onto a new name as one multi-valued RDN (`O=...+CN=...`), so the sequence of single-valued
 * sets is composed with asn1js and read back, which pkijs then re-encodes as it is.
 */
function subjectName(name: string): pkijs.RelativeDistinguishedNames {
  const attributes = [
    { type: oids.organizationName, value: truncate(name, maxNameAttributeLength) },
    { type: oids.commonName, value: commonName(name) },
  ];
  const sequence = new asn1js.Sequence({
    value: attributes.map(
      ({ type, value }) =>
        new asn1js.Set({
          value: [new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema()],
        }),
    ),
  });
  return pkijs.RelativeDistinguishedNames.fromBER(sequence.toBER(false));
}

function commonName(name: string): string {
  const suffix = ' agent configuration signing';
  return `${truncate(name, maxNameAttributeLength - suffix.length)}${suffix}`;
}

function displayName(org: SigningIdentityOrganization): string {
  return printableText(org.name) || org.slug;
}

function truncate(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : chars.slice(0, max).join('').trimEnd();
}
