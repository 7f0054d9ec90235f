import type { CollectionName } from '../../contracts/collections.js';
import { findingSeverities } from '../../contracts/enums.js';
import { consoleGetSql } from './collection-tables.js';
import type { Database } from './database.js';
import type { FindingKeys } from './exception-matches.js';
import type { Exceptions } from './exceptions.js';
import type { ExposureFigures, ExposureFiguresCache } from './exposure-figures.js';
import { inventoryOf } from './inventory-ids.js';

/** The object's closing brace of an item's JSON gives way to more fields (`fields` is a JSON object). */
const withFields = (json: string, fields: object) => `${json.slice(0, -1)},${JSON.stringify(fields).slice(1)}`;

/** An endpoint's exposure after exceptions, with what they leave out of it. */
function endpointFields(figures: ExposureFigures, id: string) {
  const index = figures.endpointIndex.get(id) ?? -1;
  const exposure = figures.endpointExposure.exposure(index);
  const before = figures.beforeExceptions.endpointExposure.exposure(index);
  const openOf = (counts: typeof exposure.open_findings) => findingSeverities.reduce((sum, severity) => sum + counts[severity], 0);
  return {
    ...exposure,
    excepted_open_findings: openOf(before.open_findings) - openOf(exposure.open_findings),
    risk_score_before_exceptions: before.risk_score,
  };
}

/**
 * Items as the console's lists, details and CSV exports answer them: the /v1 JSON with the
 * registry's `consoleFields`, read by SQLite (a finding's hostname and target), from the
 * exposure figures (an endpoint's open findings and risk score, after exceptions and before)
 * or from the exceptions in force (a finding's `exception`).
 */
export class ConsoleItems {
  constructor(
    private readonly db: Database,
    private readonly figures: ExposureFiguresCache,
    private readonly exceptions: Exceptions,
  ) {}

  /** The JSON of each of `ids` the organization holds, in their order; ids it does not hold are left out. */
  async get(collection: CollectionName, orgRowId: number, ids: readonly string[]): Promise<string[]> {
    const figures = collection === 'endpoints' ? await this.figures.of(orgRowId) : undefined;
    // Nothing awaits from here: the items are read at the figures' version.
    const marks = collection === 'findings' ? this.exceptions.marks(orgRowId) : undefined;
    const sql = consoleGetSql[collection];
    const inventoryId = inventoryOf(this.db, orgRowId);
    const items: string[] = [];
    for (const id of ids) {
      const json = this.db.value(sql, [inventoryId, id.toLowerCase()]);
      if (typeof json !== 'string') continue;
      if (figures) items.push(withFields(json, endpointFields(figures, id.toLowerCase())));
      else if (collection === 'findings') items.push(withFields(json, { exception: marks ? marks(JSON.parse(json) as FindingKeys) : null }));
      else items.push(json);
    }
    return items;
  }
}
