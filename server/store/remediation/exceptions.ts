import crypto from 'node:crypto';
import { type ExceptionState, exceptionsFileFormat, latestExceptionExpiry } from '../../../contracts/console/exception-basics.js';
import type {
  ConsoleException,
  CreateExceptionBody,
  ExceptionImportResult,
  ExceptionRecord,
  ExceptionsFile,
  FindingException,
  UpdateExceptionBody,
} from '../../../contracts/console/exceptions.js';
import { findingStatuses } from '../../../contracts/enums.js';
import type { ChangeKind, ChangeVersions, RecordWrite } from '../derived/change-kinds.js';
import type { Database } from '../engine/database.js';
import type { ExceptedFindings } from '../basics/excepted-findings.js';
import { type FindingKeys, ExceptionMatches, exceptionScopeFindings, findingMarks } from './exception-matches.js';
import { coverageColumns } from '../basics/coverage-columns.js';
import { onOneVersion } from '../derived/one-version.js';
import { ExceptionRecords } from './exception-records.js';
import type { CoverageColumnSource } from '../exposure/exposure-figures.js';

/** A field of an exception (or of an imported file) that breaks a rule only the moment can check: the answer is 400. */
export class ExceptionRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** An edit or a revocation of an exception that is revoked: revocation is final (409). */
export class ExceptionRevokedError extends Error {
  constructor(id: string) {
    super(`Exception ${id} is revoked: make a new one`);
  }
}

const open = findingStatuses.indexOf('open');

/** Where an exception stands at `now` (ms). */
function stateOf(record: ExceptionRecord, now: number): ExceptionState {
  if (record.revoked_at !== null) return 'revoked';
  return Date.parse(record.expires_at) > now ? 'active' : 'expired';
}

/** The latest of an exception's changes (made, edited, revoked), in ms: what an import compares. */
function lastChange(record: ExceptionRecord): number {
  return Math.max(...[record.created_at, record.updated_at, record.revoked_at].map((at) => (at === null ? 0 : Date.parse(at))));
}

/** Why an expiry set at `now` is refused, if it is: it must be after now, and at most a year ahead. */
function expiryProblem(expiresAt: string, now: number): string | undefined {
  const expires = Date.parse(expiresAt);
  if (expires <= now) return 'must be after now';
  if (expires > latestExceptionExpiry(now)) return `must be at most a year ahead (${new Date(latestExceptionExpiry(now)).toISOString()} at the latest)`;
  return undefined;
}

/** What a change of exceptions changes: what is derived from them names them in its key (`ExceptedFindings.key`). */
const exceptionChanges: readonly ChangeKind[] = ['exceptions'];

/**
 * An organization's exceptions: accepted CVEs (everywhere or on chosen endpoints) and findings,
 * with a reason and an expiry, stored locally per organization and kept across syncs; which
 * findings those in force leave out of the gaps and the risk figures (the excepted findings,
 * by the store's clock), and each finding's mark. Each change is one store write of the
 * `exceptions` kind (an import one for the whole file): it changes no inventory row.
 */
export class Exceptions {
  private readonly records: ExceptionRecords;
  private readonly matches: ExceptionMatches;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly coverage: CoverageColumnSource,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {
    this.records = new ExceptionRecords(db);
    this.matches = new ExceptionMatches(db, versions, coverage);
  }

  /** Makes an exception of `user`'s; throws {@link ExceptionRuleError} for an expiry out of bounds. */
  create(orgRowId: number, body: CreateExceptionBody, user: string): ExceptionRecord {
    const now = this.now();
    const problem = expiryProblem(body.expires_at, now);
    if (problem) throw new ExceptionRuleError('expires_at', problem);
    const record: ExceptionRecord = {
      id: crypto.randomUUID(),
      ...body,
      expires_at: new Date(Date.parse(body.expires_at)).toISOString(),
      created_by: user,
      created_at: new Date(now).toISOString(),
      updated_by: null,
      updated_at: null,
      revoked_by: null,
      revoked_at: null,
    };
    this.write(exceptionChanges, () => this.records.put(orgRowId, record));
    return record;
  }

  /** Edits an exception's reason, note or expiry as `user`; undefined when the organization has no such exception. */
  update(orgRowId: number, id: string, body: UpdateExceptionBody, user: string): ExceptionRecord | undefined {
    const record = this.records.get(orgRowId, id);
    if (!record) return undefined;
    if (record.revoked_at !== null) throw new ExceptionRevokedError(record.id);
    const now = this.now();
    const problem = body.expires_at === undefined ? undefined : expiryProblem(body.expires_at, now);
    if (problem) throw new ExceptionRuleError('expires_at', problem);
    const updated: ExceptionRecord = { ...record, ...body, updated_by: user, updated_at: new Date(now).toISOString() };
    if (body.expires_at !== undefined) updated.expires_at = new Date(Date.parse(body.expires_at)).toISOString();
    this.write(exceptionChanges, () => this.records.put(orgRowId, updated));
    return updated;
  }

  /** Revokes an exception as `user`, keeping its record; undefined when the organization has no such exception. */
  revoke(orgRowId: number, id: string, user: string): ExceptionRecord | undefined {
    const record = this.records.get(orgRowId, id);
    if (!record) return undefined;
    if (record.revoked_at !== null) throw new ExceptionRevokedError(record.id);
    const revoked: ExceptionRecord = { ...record, revoked_by: user, revoked_at: new Date(this.now()).toISOString() };
    this.write(exceptionChanges, () => this.records.put(orgRowId, revoked));
    return revoked;
  }

  /** The organization's exceptions as a file another installation imports. */
  exportFile(orgRowId: number, organization: { slug: string; name: string }): ExceptionsFile {
    return {
      ...exceptionsFileFormat,
      exported_at: new Date(this.now()).toISOString(),
      organization,
      exceptions: this.records.list(orgRowId),
    };
  }

  /**
   * Imports a file's exceptions, all or none: every one is checked first (an expiry more than a
   * year ahead or before its making, changes before its making, an id twice, an id held here
   * with another scope), and the first problem is thrown as {@link ExceptionRuleError}. Then an
   * id not held here is created; a held one is taken from the file when the file changed it
   * later (made, edited or revoked) than it was changed here, unless it is revoked here
   * (revocation is final); otherwise it is skipped.
   */
  importFile(orgRowId: number, file: ExceptionsFile): ExceptionImportResult {
    const latest = latestExceptionExpiry(this.now());
    const seen = new Set<string>();
    const plan = file.exceptions.map((record, index) => {
      const field = (name: string) => `exceptions.${index}.${name}`;
      const id = record.id.toLowerCase();
      if (seen.has(id)) throw new ExceptionRuleError(field('id'), `is ${id} again: an id may appear once`);
      seen.add(id);
      const created = Date.parse(record.created_at);
      if (Date.parse(record.expires_at) > latest) throw new ExceptionRuleError(field('expires_at'), 'is more than a year ahead');
      if (Date.parse(record.expires_at) <= created) throw new ExceptionRuleError(field('expires_at'), 'is not after created_at');
      for (const [at, by] of [['updated_at', 'updated_by'], ['revoked_at', 'revoked_by']] as const) {
        if ((record[at] === null) !== (record[by] === null)) throw new ExceptionRuleError(field(by), `must be given with ${at}, and only with it`);
        if (record[at] !== null && Date.parse(record[at]) < created) throw new ExceptionRuleError(field(at), 'is before created_at');
      }
      const held = this.records.get(orgRowId, id);
      if (held && JSON.stringify(held.scope) !== JSON.stringify(record.scope)) {
        throw new ExceptionRuleError(field('scope'), `differs from the scope of exception ${id} here: an exception's scope never changes`);
      }
      const action = !held ? 'created' : held.revoked_at === null && lastChange(record) > lastChange(held) ? 'updated' : 'skipped';
      return { record: { ...record, id }, action } as const;
    });
    const result: ExceptionImportResult = { created: 0, updated: 0, skipped: 0 };
    this.write(exceptionChanges, () => {
      for (const { record, action } of plan) {
        result[action]++;
        if (action !== 'skipped') this.records.put(orgRowId, record);
      }
    });
    return result;
  }

  /** The organization's exceptions, newest first, in `state` now when given, with the findings each covers in the data now. */
  async list(orgRowId: number, state?: ExceptionState): Promise<ConsoleException[]> {
    const now = this.now();
    const listed = this.records
      .list(orgRowId)
      .map((record) => ({ ...record, state: stateOf(record, now) }))
      .filter((record) => state === undefined || record.state === state);
    // Every count of one version of the data: read again after a write meanwhile.
    return onOneVersion(this.versions, [exceptionScopeFindings, coverageColumns], async () => {
      const matched: Int32Array[] = [];
      for (const record of listed) matched.push(await this.matches.matched(orgRowId, record.scope));
      const { status } = await this.coverage.currentColumns(orgRowId);
      return listed.map((record, index) => {
        const findings = matched[index]!;
        let openFindings = 0;
        for (const finding of findings) if (status[finding] === open) openFindings++;
        return { ...record, findings: findings.length, open_findings: openFindings };
      });
    });
  }

  /** The findings the organization's exceptions in force now leave out (the `ExceptedFindingsSource` of the figures). */
  excepted(orgRowId: number): Promise<ExceptedFindings> {
    return this.matches.excepted(orgRowId, this.records.inForce(orgRowId, this.now()));
  }

  /** The key {@link excepted} answers now, read without computing the findings: a few rows of SQL. */
  keyOf(orgRowId: number): string {
    return this.matches.keyOf(orgRowId, this.records.inForce(orgRowId, this.now()));
  }

  /** The exception in force now that each finding of the organization is under, or null (see findingMarks). */
  marks(orgRowId: number): ((finding: FindingKeys) => FindingException) | undefined {
    const inForce = this.records.inForce(orgRowId, this.now());
    return inForce.length ? findingMarks(inForce) : undefined;
  }
}
