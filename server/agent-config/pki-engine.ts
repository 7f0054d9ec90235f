/**
 * The one pkijs crypto engine of the agent-config code, over Node's native WebCrypto, passed
 * explicitly to every pkijs call so nothing depends on pkijs's global engine being set.
 */
import { webcrypto } from 'node:crypto';
import * as pkijs from 'pkijs';

/** pkijs over Node's WebCrypto: RSA signing and verification run in native code. */
export const pkiEngine = new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as unknown as pkijs.CryptoEngineParameters['crypto'] });

/** The algorithm a signing key is imported with: RSA PKCS#1 v1.5 over SHA-256 (see README). */
export const rsaSigningAlgorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** OIDs the CMS code names; kept here so a reader can look each up once. */
export const oids = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  contentTypeAttribute: '1.2.840.113549.1.9.3',
  messageDigestAttribute: '1.2.840.113549.1.9.4',
  signingTimeAttribute: '1.2.840.113549.1.9.5',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  emailProtection: '1.3.6.1.5.5.7.3.4',
} as const;

/**
 * A fresh ArrayBuffer holding exactly these bytes: pkijs wants ArrayBuffers, and a Buffer's
 * `.buffer` (even after Buffer's `slice`, which shares memory) is often a larger shared pool.
 */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

/** A DER encoding as PEM with the given label, 64 characters a line as OpenSSL writes it. */
export function derToPem(der: Uint8Array, label: string): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
