/**
 * Who signs a report (issue 40): each of its organizations' signing identities, one SignerInfo
 * each in one detached CMS signature. The signed HTML names every signer (its organization's
 * slug and its certificate's SHA-256 fingerprint, the `data-signer-*` attributes), so that
 * `verify` can tell a signature that lacks one of them, or has another, from the report's own.
 */
import { X509Certificate } from 'node:crypto';
import type { DetachedSigner } from '../agent-config/verify-detached.js';
import { AgentConfigVerificationError } from '../agent-config/errors.js';

/** One organization's signing identity as a report names it. */
export interface ReportSigner {
  /** The organization's slug. */
  organization: string;
  /** The certificate's subject, `CN=…, O=…`. */
  subject: string;
  /** The certificate's SHA-256 fingerprint, `AB:CD:…`, as `verify` prints it. */
  fingerprint: string;
}

/** The signer an organization's certificate (PEM) makes. */
export function reportSigner(organization: string, certificatePem: string): ReportSigner {
  const certificate = new X509Certificate(certificatePem);
  return { organization, subject: certificate.subject.split('\n').join(', '), fingerprint: certificate.fingerprint256 };
}

/** How the HTML names a signer (executive-report-html.ts writes it, {@link namedSigners} reads it). */
export function signerAttributes(signer: ReportSigner): string {
  return `data-signer-organization="${signer.organization}" data-signer-fingerprint="${signer.fingerprint}"`;
}

/** A signer the HTML names: a slug (organization-records.ts's pattern) and a SHA-256 fingerprint, matched in linear time. */
const namedSigner = /data-signer-organization="([a-z0-9-]{1,40})" data-signer-fingerprint="((?:[0-9A-F]{2}:){31}[0-9A-F]{2})"/g;

/** The signers a report's HTML names, in order; none for a report made before reports named them. */
export function namedSigners(html: Buffer): { organization: string; fingerprint: string }[] {
  return [...html.toString('utf8').matchAll(namedSigner)].map(([, organization, fingerprint]) => ({ organization: organization!, fingerprint: fingerprint! }));
}

/** A verified signer of a report, with the organization the report names it for. */
export interface ReportSignerCheck extends DetachedSigner {
  /** The organization's slug; undefined for a report that names no signers (made before it did). */
  organization: string | undefined;
}

/**
 * Matches a report's verified signers with those its HTML names: each named one must have
 * signed, and nobody else. A report that names none (made before reports named them) takes its
 * signers as verified.
 * @param label names the signature file in error messages
 * @throws AgentConfigVerificationError naming the organization whose identity did not sign, or the signer the report does not name
 */
export function checkReportSigners(html: Buffer, signers: readonly DetachedSigner[], label: string): ReportSignerCheck[] {
  const named = namedSigners(html);
  if (named.length === 0) return signers.map((signer) => ({ ...signer, organization: undefined }));
  const fail = (why: string) => new AgentConfigVerificationError(`${label}: ${why}`);
  const checked = signers.map((signer) => {
    const organization = named.find((candidate) => candidate.fingerprint === signer.signer.fingerprint)?.organization;
    if (organization === undefined) throw fail(`signed by ${signer.signer.subject}, which is not the identity of any of the report's organizations`);
    return { ...signer, organization };
  });
  const missing = named.filter((candidate) => !signers.some((signer) => signer.signer.fingerprint === candidate.fingerprint));
  if (missing.length > 0) {
    throw fail(`not signed by the identity of ${missing.map((candidate) => candidate.organization).join(' and ')}, which the report names as its signer`);
  }
  return checked;
}
