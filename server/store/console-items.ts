import type { CollectionName } from '../../contracts/collections.js';
import { consoleGetSql } from './collection-tables.js';
import type { Database } from './database.js';
import type { DeadlineFigures, FindingDeadlineFacts } from './deadline-figures.js';
import type { ExposureFiguresCache } from './exposure-figures.js';
import { inventoryOf } from './inventory-ids.js';

/**
 * Items as the console's lists, details and CSV exports answer them: the /v1 JSON with the
 * registry's `consoleFields`, read by SQLite (a finding's hostname and target), from the
 * exposure figures (an endpoint's open findings and risk score), or from the row's facts and
 * the organization's deadlines (a finding's age, due date and whether it is overdue).
 */
export class ConsoleItems {
  constructor(
    private readonly db: Database,
    private readonly figures: ExposureFiguresCache,
    private readonly deadlines: DeadlineFigures,
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
      const figures = await this.figures.of(orgRowId);
      return (id) => JSON.stringify(figures.endpointExposure.exposure(figures.endpointIndex.get(id) ?? -1)).slice(1, -1);
    }
    if (collection === 'findings') {
      const fields = await this.deadlines.findingFields(orgRowId, asOf);
      return (_id, row) => fields(row as unknown as FindingDeadlineFacts);
    }
    return undefined;
  }
}
