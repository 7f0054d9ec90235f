import { derivedValue } from '../derived/change-kinds.js';

/**
 * The findings an organization's exceptions in force leave out (an {@link ExceptedFindings}): read from the
 * inventory; the exceptions in force are named in its key.
 */
export const exceptedFindings = derivedValue('excepted findings', ['inventory']);

/**
 * The findings of one organization that an exception in force now leaves out of coverage gaps,
 * overdue counts and risk figures, by their place in the coverage columns (coverage-columns.ts:
 * index `i` is the i-th finding in seq order). Whatever derives a value from them keys its cache
 * on {@link ExceptedFindings.key}, which changes whenever the set may have: an exception
 * created, edited, revoked or expired, or the data changed.
 */
export interface ExceptedFindings {
  readonly key: string;
  /** 1 at the index of an excepted finding; shorter than the columns (down to empty) where none follow. */
  readonly byColumn: Uint8Array;
  /** How many findings are excepted. */
  readonly count: number;
}

/** Where the figures ask for an organization's excepted findings (by its row id). */
export type ExceptedFindingsSource = (orgRowId: number) => Promise<ExceptedFindings>;

/** No finding excepted. */
export const noExceptedFindings: ExceptedFindings = { key: '', byColumn: new Uint8Array(0), count: 0 };
