import type { CollectionName } from '../../../contracts/collections.js';
import { findingSeverities } from '../../../contracts/enums.js';
import { consoleGetSql } from '../basics/collection-tables.js';
import { type EffectiveEndpointContext, effectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import type { EndpointContextSource } from '../basics/endpoint-selection.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { VersionMoved, onOneVersion } from '../derived/one-version.js';
import type { DeadlineFigures, FindingDeadlineFacts } from '../remediation/deadline-figures.js';
import type { FindingKeys } from '../remediation/exception-matches.js';
import type { Exceptions } from '../remediation/exceptions.js';
import { type ExposureFigures, type ExposureFiguresCache, exposureFigures } from '../exposure/exposure-figures.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import type { FindingIntel } from '../intel/finding-intel.js';
import { type ExploitFigures, endpointExploitFigures } from '../intel/exploit-figures.js';
import { type FixByFigures, type FixByRow, fixByColumns } from '../ssvc/fix-by-figures.js';

/** An endpoint's exposure after exceptions, with what they leave out of it, and its context, the risk before criticality weighs it. */
function endpointFields(figures: ExposureFigures, context: EffectiveEndpointContext, id: string) {
  const index = figures.endpointIndex.get(id) ?? -1;
  const exposure = figures.endpointExposure.exposure(index);
  const before = figures.beforeExceptions.endpointExposure.exposure(index);
  const openOf = (counts: typeof exposure.open_findings) => findingSeverities.reduce((sum, severity) => sum + counts[severity], 0);
  // Every finding of an endpoint weighs by the same factor: dividing by it undoes it.
  const factor = figures.endpointFactors?.[index] ?? 1;
  return {
    ...exposure,
    excepted_open_findings: openOf(before.open_findings) - openOf(exposure.open_findings),
    risk_score_before_exceptions: before.risk_score,
    tags: context.tagsOf(id).map(({ tag }) => tag),
    criticality: context.criticalityOf(id),
    risk_score_before_criticality: exposure.risk_score / factor,
  };
}

/**
 * What the console's items show, read from the inventory, the exceptions, the deadline policies,
 * the endpoint context and the imported intelligence (EPSS, KEV): a reader of many pages of them (a CSV export) checks that it is
 * still of one version between pages (`OneVersion`, one-version.ts).
 */
export const consoleItems = derivedValue('console items', ['inventory', 'organizations', 'exceptions', 'deadline-policies', 'endpoint-context', 'threat-intel']);

/**
 * Items as the console's lists, details and CSV exports answer them: the /v1 JSON with the
 * registry's `consoleFields`, read by SQLite (a finding's hostname and target), from the
 * exposure figures (an endpoint's open findings and risk score, after exceptions and before),
 * or from the row's facts, the organization's deadlines (a finding's age, due date and whether
 * it is overdue) and the exceptions in force (a finding's `exception`).
 */
export class ConsoleItems {
  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly figures: ExposureFiguresCache,
    private readonly deadlines: DeadlineFigures,
    private readonly exceptions: Exceptions,
    private readonly context: EndpointContextSource,
    private readonly intel: FindingIntel,
    private readonly exploit: ExploitFigures,
    private readonly fixBy: FixByFigures,
  ) {}

  /**
   * The JSON of each of `ids` the organization holds, in their order; ids it does not hold are
   * left out. `asOf` is the instant of a finding's age and of whether it is overdue.
   */
  async get(collection: CollectionName, orgRowId: number, ids: readonly string[], asOf = this.deadlines.asOf()): Promise<string[]> {
    const added = await this.addedFields(collection, orgRowId, asOf);
    // Nothing awaits from here: the items are read at the figures' version.
    const sql = consoleGetSql[collection];
    const inventoryId = inventoryOf(this.db, orgRowId);
    const items: string[] = [];
    for (const id of ids) {
      const row = this.db.get<{ json: string } & Record<string, unknown>>(sql, [inventoryId, id.toLowerCase()]);
      if (row === undefined) continue;
      // The object's closing brace gives way to the added fields.
      items.push(added ? `${row.json.slice(0, -1)},${added(id.toLowerCase(), row)}}` : row.json);
    }
    return items;
  }

  /** The members a collection's items get besides SQLite's JSON, as JSON text, by item id and row; undefined for none. */
  private async addedFields(collection: CollectionName, orgRowId: number, asOf: number): Promise<((id: string, row: Record<string, unknown>) => string) | undefined> {
    if (collection === 'endpoints') {
      // Of one version of the data and the intelligence, or read again after a write meanwhile.
      return onOneVersion(this.versions, [exposureFigures, effectiveEndpointContext, endpointExploitFigures, fixByColumns], async () => {
        const figures = await this.figures.of(orgRowId);
        const context = await this.context(orgRowId);
        const exploit = await this.exploit.endpointFigures(orgRowId);
        const fixBy = await this.fixBy.endpointMembers(orgRowId);
        // Keys of other columns than the figures' would name other endpoints: read again.
        if (fixBy.columns !== figures.sortValues.columns) throw new VersionMoved();
        return (id: string) => {
          const key = figures.endpointIndex.get(id) ?? -1;
          return `${JSON.stringify({ ...endpointFields(figures, context, id), ...exploit(key) }).slice(1, -1)},${fixBy.members(key)}`;
        };
      });
    }
    if (collection === 'remediationTargets') {
      const exploit = await this.exploit.targetFigures(orgRowId);
      return (id) => JSON.stringify(exploit(id)).slice(1, -1);
    }
    if (collection === 'findings') {
      const fields = await this.deadlines.findingFields(orgRowId, asOf);
      const marks = this.exceptions.marks(orgRowId);
      const intel = await this.intel.findingMembers();
      const fixBy = await this.fixBy.findingMembers(orgRowId);
      return (_id, row) =>
        `${fields(row as unknown as FindingDeadlineFacts)},"exception":${marks ? JSON.stringify(marks(row as unknown as FindingKeys)) : 'null'},${intel(row.cve_id as string)},${fixBy(row as unknown as FixByRow & { status: string })}`;
    }
    return undefined;
  }
}
