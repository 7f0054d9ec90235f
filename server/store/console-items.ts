import type { CollectionName } from '../../contracts/collections.js';
import { consoleGetSql } from './collection-tables.js';
import type { Database } from './database.js';
import type { ExposureFiguresCache } from './exposure-figures.js';
import { inventoryOf } from './inventory-ids.js';

/**
 * Items as the console's lists, details and CSV exports answer them: the /v1 JSON with the
 * registry's `consoleFields`, read by SQLite (a finding's hostname and target) or from the
 * exposure figures (an endpoint's open findings and risk score).
 */
export class ConsoleItems {
  constructor(
    private readonly db: Database,
    private readonly figures: ExposureFiguresCache,
  ) {}

  /** The JSON of each of `ids` the organization holds, in their order; ids it does not hold are left out. */
  async get(collection: CollectionName, orgRowId: number, ids: readonly string[]): Promise<string[]> {
    const figures = collection === 'endpoints' ? await this.figures.of(orgRowId) : undefined;
    // Nothing awaits from here: the items are read at the figures' version.
    const sql = consoleGetSql[collection];
    const inventoryId = inventoryOf(this.db, orgRowId);
    const items: string[] = [];
    for (const id of ids) {
      const json = this.db.value(sql, [inventoryId, id.toLowerCase()]);
      if (typeof json !== 'string') continue;
      if (!figures) {
        items.push(json);
        continue;
      }
      const exposure = figures.endpointExposure.exposure(figures.endpointIndex.get(id.toLowerCase()) ?? -1);
      // The object's closing brace gives way to the exposure's fields.
      items.push(`${json.slice(0, -1)},${JSON.stringify(exposure).slice(1)}`);
    }
    return items;
  }
}
