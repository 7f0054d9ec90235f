import crypto from 'node:crypto';
import { type RemoteProblem, describeRemoteProblem } from '../remote/remote-problems.js';
import { BodyTooLargeError, formatBytes, readBodyCapped } from '../remote/read-body-capped.js';
import { checkBodyMaxBytes } from '../remote/remote-bounds.js';
import { type RemoteTenant, RemoteUnreachableError, remoteGet, remoteRequestTimeoutMs, timedOut } from '../remote/remote-tenant.js';
import {
  type ConnectOrganizationBody,
  type UpdateOrganizationBody,
  connectOrganizationBodySchema,
  updateOrganizationBodySchema,
} from '../../contracts/console/organizations.js';
import type { FieldIssue } from '../../contracts/common.js';
import { parseRemoteUrl } from '../../contracts/remote-url.js';
import { removeAppendices } from '../reports/report-appendix.js';
import type { Sealer } from '../secrets/sealer.js';
import { type Organization, slugPattern } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';

/** A user's mistake in managing organizations, answered with its message (exit code 2, or 400). */
export class OrganizationInputError extends Error {}

/** Fields that break their rules, each with its message (422 with the issues). */
export class OrganizationFieldsError extends OrganizationInputError {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
  }
}

/** No organization has the slug (404), or none any more. */
export class OrganizationNotFoundError extends OrganizationInputError {}

/** The slug is taken (409). */
export class OrganizationExistsError extends OrganizationInputError {}

/**
 * The remote tenant could not be reached at the address typed, refused the key or is not the
 * v1 API (502); the message says which, and what to check.
 */
export class RemoteCheckFailedError extends OrganizationInputError {
  constructor(
    readonly problem: RemoteProblem,
    baseUrl: string,
  ) {
    super(describeRemoteProblem(baseUrl, problem, { typed: true }));
  }
}

/**
 * A replica's remote URL changes without a new key (400 naming `apiKey`): the stored key is
 * never sent to another address, where whoever listens would read it.
 */
export class RemoteKeyRequiredError extends OrganizationInputError {
  readonly field = 'apiKey';
  static readonly reason = 'a new address needs its key: the stored key is never sent to another address';
  constructor() {
    super(`apiKey: ${RemoteKeyRequiredError.reason}`);
  }
}

/** This server has no sealer, so it can store no remote key (501). */
export class NoSealerError extends OrganizationInputError {}

/** Finds an organization by slug or fails with a message that names it. */
export function requireOrganization(store: Store, slug: string): Organization {
  const organization = store.organizations.bySlug(slug);
  if (!organization) throw new OrganizationNotFoundError(`No organization with slug "${slug}"`);
  return organization;
}

/** A new random enrollment secret, as agents send it when they enroll. */
export function generateEnrollmentSecret(): string {
  return crypto.randomBytes(24).toString('base64url');
}

function checkNewOrganization(store: Store, slug: string, name: string): void {
  if (!slugPattern.test(slug)) {
    throw new OrganizationInputError(
      `Invalid slug "${slug}": use 1 to 40 lowercase letters, digits and inner hyphens`,
    );
  }
  if (!name.trim() || name.length > 200) throw new OrganizationInputError('The name must be 1 to 200 characters');
  requireFreeSlug(store, slug);
}

function requireFreeSlug(store: Store, slug: string): void {
  if (store.organizations.bySlug(slug)) throw new OrganizationExistsError(`An organization "${slug}" exists already`);
}

/**
 * Creates a local organization with its signing key and certificate and, unless told
 * otherwise, a generated enrollment secret.
 */
export async function createLocalOrganization(
  store: Store,
  sealer: Sealer,
  input: { slug: string; name: string; enrollmentSecret: boolean; isDemo?: boolean },
): Promise<Organization> {
  checkNewOrganization(store, input.slug, input.name);
  const organization = store.organizations.insert({
    slug: input.slug,
    name: input.name,
    kind: 'local',
    isDemo: input.isDemo ?? false,
    enrollmentSecretSealed: input.enrollmentSecret ? sealer.seal(Buffer.from(generateEnrollmentSecret())) : undefined,
  });
  await attachSigningIdentity(store, sealer, organization);
  return store.organizations.byRowId(organization.rowId)!;
}

/** Gives an organization its signing key (sealed) and self-signed certificate. */
async function attachSigningIdentity(store: Store, sealer: Sealer, organization: Organization): Promise<void> {
  // Loaded when needed: the signing modules would add a noticeable part to the CLI's start; this
  // one alone, not agent-config's index with its file writers (one turn of 124 ms in `serve`).
  const { createSigningIdentity } = await import('../agent-config/signing-identity.js');
  const identity = await createSigningIdentity({ id: organization.id, slug: organization.slug, name: organization.name });
  store.organizations.change(() => {
    store.organizations.setSealedSecret(organization.rowId, 'signing_key', sealer.seal(Buffer.from(identity.privateKeyPem)));
    store.organizations.setCertificate(organization.rowId, identity.certificatePem);
  });
}

/**
 * Removes an organization with its keys, secrets and reports, in one small write, then its
 * technical reports' appendix files from `appendixFolder` (none without one: a store without a
 * data directory). Its inventory is no longer anybody's and goes at the next collection
 * (`store.inventories.collect()`), a chunk of rows per write, rather than in one transaction of
 * a million deletes.
 */
export function removeOrganization(store: Store, slug: string, appendixFolder: string | undefined): void {
  const organization = requireOrganization(store, slug);
  const technicalReports = store.reports.technicalIds(organization.rowId);
  store.organizations.delete(organization.rowId);
  // After the removal's durable write: a crash before the files go leaves orphans, which the next open sweeps.
  if (appendixFolder !== undefined) removeAppendices(appendixFolder, technicalReports);
}

/** Sets (a given value), rotates (a new random value) or clears an organization's enrollment secret. */
export function changeEnrollmentSecret(
  store: Store,
  sealer: Sealer,
  organization: Organization,
  change: { set: string } | { rotate: true } | { clear: true },
): void {
  let secret: string | null;
  if ('set' in change) {
    secret = change.set.trim();
    if (secret.length < 16 || secret.length > 512 || /\s/.test(secret)) {
      throw new OrganizationInputError('An enrollment secret must be 16 to 512 characters with no white space');
    }
  } else {
    secret = 'rotate' in change ? generateEnrollmentSecret() : null;
  }
  store.organizations.setSealedSecret(organization.rowId, 'enrollment_secret', secret === null ? null : sealer.seal(Buffer.from(secret)));
}

/** The organization's enrollment secret, unsealed, or undefined when it has none. */
export function readEnrollmentSecret(store: Store, sealer: Sealer, organization: Organization): string | undefined {
  const sealed = store.organizations.sealedSecret(organization.rowId, 'enrollment_secret');
  return sealed && sealer.unseal(sealed).toString();
}

/** The organization's signing key and certificate, unsealed. */
export function readSigner(
  store: Store,
  sealer: Sealer,
  organization: Organization,
): { privateKeyPem: string; certificatePem: string } | undefined {
  const sealed = store.organizations.sealedSecret(organization.rowId, 'signing_key');
  if (!sealed || !organization.certificatePem) return undefined;
  return { privateKeyPem: sealer.unseal(sealed).toString(), certificatePem: organization.certificatePem };
}

/**
 * The organization's signing key and certificate, made first when it has none: a replica gets
 * its own at the first file it signs here (a report), as a local organization has from its creation.
 */
export async function ensureSigner(store: Store, sealer: Sealer, organization: Organization): Promise<{ privateKeyPem: string; certificatePem: string }> {
  const signer = readSigner(store, sealer, organization);
  if (signer) return signer;
  await attachSigningIdentity(store, sealer, organization);
  return readSigner(store, sealer, store.organizations.byRowId(organization.rowId)!)!;
}

/** A replica's remote tenant with its key unsealed; undefined for a local organization. */
export function readRemoteTenant(store: Store, sealer: Sealer, organization: Organization): RemoteTenant | undefined {
  const sealed = store.organizations.sealedSecret(organization.rowId, 'remote_key');
  if (organization.kind !== 'replica' || !organization.remoteUrl || !sealed) return undefined;
  return { baseUrl: organization.remoteUrl, apiKey: sealer.unseal(sealed).toString(), replica: organization.slug };
}

function fieldsError(issues: { path: PropertyKey[]; message: string }[]): OrganizationFieldsError {
  return new OrganizationFieldsError(issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'body', message: issue.message })));
}

/**
 * Checks, before anything is saved, that a remote tenant answers the v1 API at this address
 * with this key: one list request of one scope. Connecting and editing a replica both check
 * here; a failure is {@link RemoteCheckFailedError}, saying what failed and what to check.
 */
async function checkRemoteAnswers(remote: RemoteTenant): Promise<void> {
  let body: { data?: unknown; total?: unknown } | undefined;
  try {
    body = await remoteGet(remote, '/v1/scopes?limit=1', async (response, until) => {
      const { status } = response;
      // An error's body is never read (remoteGet cancels it): its status says enough.
      if (status === 401 || status === 403) throw new RemoteCheckFailedError({ kind: 'refused-key', status }, remote.baseUrl);
      if (!response.ok) throw new RemoteCheckFailedError({ kind: 'answered', status }, remote.baseUrl);
      return readCheckBody(remote, response, until);
    });
  } catch (error) {
    if (error instanceof RemoteUnreachableError) throw new RemoteCheckFailedError(error.problem, remote.baseUrl);
    throw error;
  }
  if (!Array.isArray(body?.data) || typeof body.total !== 'number') throw new RemoteCheckFailedError({ kind: 'not-the-api' }, remote.baseUrl);
}

/** The check's answer, parsed; at most {@link checkBodyMaxBytes} of it are read (a remote is untrusted input). */
async function readCheckBody(remote: RemoteTenant, response: Response, until: AbortSignal): Promise<{ data?: unknown; total?: unknown } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readBodyCapped(response, checkBodyMaxBytes, until);
  } catch (error) {
    if (timedOut(error)) {
      throw new RemoteCheckFailedError({ kind: 'timed-out', seconds: remoteRequestTimeoutMs / 1000 }, remote.baseUrl);
    }
    if (!(error instanceof BodyTooLargeError)) throw new RemoteCheckFailedError({ kind: 'broken-answer', what: 'the answer broke off' }, remote.baseUrl);
    const what = `the answer to a request of one scope weighed more than ${formatBytes(error.maxBytes)}`;
    throw new RemoteCheckFailedError({ kind: 'beyond-bound', what }, remote.baseUrl);
  }
  try {
    return JSON.parse(bytes.toString()) as { data?: unknown; total?: unknown } | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connects a replica organization to its remote tenant: validates the input with the schema of
 * `POST /app/organizations`, checks that the remote answers the v1 API with that key, then saves
 * the organization with the key sealed. Nothing is saved when any of it fails. The CLI's
 * `orgs connect` and the console both connect through here.
 */
export async function connectReplicaOrganization(store: Store, sealer: Sealer, input: ConnectOrganizationBody): Promise<Organization> {
  const parsed = connectOrganizationBodySchema.safeParse(input);
  if (!parsed.success) throw fieldsError(parsed.error.issues);
  const { slug, remoteUrl: baseUrl, apiKey } = parsed.data;
  const name = parsed.data.name ?? slug;
  requireFreeSlug(store, slug);
  await checkRemoteAnswers({ baseUrl, apiKey });
  return store.organizations.change(() => {
    // Checked again: another connect may have taken the slug while the remote answered.
    requireFreeSlug(store, slug);
    return store.organizations.insert({ slug, name, kind: 'replica', remoteUrl: baseUrl, remoteKeySealed: sealer.seal(Buffer.from(apiKey)) });
  });
}

/**
 * Changes an organization in place: a replica's remote URL, key or name, a local one's name.
 * Validates with the schema of `PATCH /app/orgs/:slug`; a new URL or key is checked against the
 * remote first (a new key with the URL that stays), and nothing is saved when any of it fails.
 * A new URL needs a new key in the same change ({@link RemoteKeyRequiredError}): the stored key
 * only ever goes to the address it was given for. A URL that differs from the stored one only
 * as typed (a trailing slash or `/v1`, the host's case, a default port) is the same address. The
 * organization's row stays, so its data, exceptions, deadlines, agent settings and change
 * history stay too; the next sync reads the new address and key (readRemoteTenant). The CLI's
 * `orgs update` and the console both update through here.
 */
export async function updateOrganization(
  store: Store,
  sealer: Sealer | undefined,
  organization: Organization,
  input: UpdateOrganizationBody,
): Promise<Organization> {
  const parsed = updateOrganizationBodySchema.safeParse(input);
  if (!parsed.success) throw fieldsError(parsed.error.issues);
  const { name, remoteUrl, apiKey } = parsed.data;
  const remoteChanges = remoteUrl !== undefined || apiKey !== undefined;
  if (remoteChanges && organization.kind !== 'replica') {
    throw new OrganizationInputError(`"${organization.slug}" is a local organization: it has no remote URL or key, only its name can change`);
  }
  let sealedKey: Buffer | undefined;
  if (remoteChanges) {
    if (!sealer) throw new NoSealerError('This server cannot store secrets: change remote tenants from the desktop app or serve');
    // Both normalized: the schema normalizes what is typed, connect and update what they store.
    const stored = organization.remoteUrl === null ? undefined : (parseRemoteUrl(organization.remoteUrl) ?? organization.remoteUrl);
    if (remoteUrl !== undefined && remoteUrl !== stored && apiKey === undefined) throw new RemoteKeyRequiredError();
    const current = readRemoteTenant(store, sealer, organization);
    const baseUrl = remoteUrl ?? current?.baseUrl;
    const key = apiKey ?? current?.apiKey;
    if (!baseUrl || !key) throw new OrganizationInputError(`"${organization.slug}" has no remote key stored: give both --remote and --api-key-file`);
    await checkRemoteAnswers({ baseUrl, apiKey: key });
    if (apiKey !== undefined) sealedKey = sealer.seal(Buffer.from(apiKey));
  }
  return store.organizations.change(() => {
    // Checked again: it may have been disconnected while the remote answered.
    const current = store.organizations.byRowId(organization.rowId);
    if (!current) throw new OrganizationNotFoundError(`No organization with slug "${organization.slug}"`);
    store.organizations.update(current.rowId, { name, remoteUrl });
    if (sealedKey) store.organizations.setSealedSecret(current.rowId, 'remote_key', sealedKey);
    return store.organizations.byRowId(current.rowId)!;
  });
}
