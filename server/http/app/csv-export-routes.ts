import express from 'express';
import * as z from 'zod';
import { type CollectionName, collectionNames, collectionSchemas, collections } from '../../../contracts/collections.js';
import { consoleItems } from '../../store/console/console-items.js';
import { OneVersion } from '../../store/derived/one-version.js';
import type { Store } from '../../store/store.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, fileResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { csvLine } from './csv-columns.js';
import { organizationOf } from './organization-param.js';
import { nextTurn } from '../../store/engine/next-turn.js';

/** The express path of a collection's export, below `/app/orgs/:slug`. */
const exportPath = (collection: CollectionName) => `/export/${collections[collection].path}.csv`;

/** The CSV export of one collection's console list. */
function exportRoute<C extends CollectionName>(router: express.Router, store: Store, collection: C): void {
  const { path, csvColumns } = collections[collection];
  router.get(exportPath(collection), async (req, res) => {
    // limit and offset are validated as in the list, then ignored: the export is every page.
    const query = parseQuery(req, collectionSchemas[collection].console);
    const organization = organizationOf(res);
    // Stopped by a write of what its items show, not by one of staged pages or another record.
    const version = new OneVersion(store.changes, [consoleItems]);
    res.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${organization.slug}-${path}.csv"`,
    });
    res.write(csvLine(csvColumns.map((column) => column.header)));
    // One instant for the whole export: its overdue filter and every item's age.
    const asOf = store.deadlines.asOf();
    for await (const ids of store.console.listAllIds(organization.rowId, collection, query, asOf)) {
      if (!version.current || res.destroyed) return void res.destroy();
      let text = '';
      const items = await store.consoleItems.get(collection, organization.rowId, ids, asOf);
      if (!version.current || res.destroyed) return void res.destroy();
      for (const json of items) {
        const item = JSON.parse(json) as Record<string, unknown>;
        text += csvLine(csvColumns.map((column) => column.value(item)));
      }
      if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
      await nextTurn();
    }
    res.end();
  });
}

/**
 * `GET /app/orgs/:slug/export/<collection>.csv`: every item of a filtered list as CSV, in the
 * list's order, with the list's filters, `sort` and `q`, in the registry's columns. The answer
 * is streamed a chunk at a time, yielding between chunks so that the server keeps answering
 * while a million rows go out; a write to the store during the export ends the download as
 * failed rather than mixing data.
 */
export function csvExportRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  for (const collection of collectionNames) exportRoute(router, store, collection);
  return router;
}

/** {@link csvExportRoutes} in the /app OpenAPI document. */
export const csvExportOperations: OpenApiRouteRegistrar = (registry) => {
  for (const collection of collectionNames) {
    const { labels, consoleQuery, resourceId, csvColumns } = collections[collection];
    const csv = z.string().meta({
      description: `RFC 4180 CSV, CRLF line ends, a header line then one line per item; the columns: ${csvColumns.map((column) => column.header).join(', ')}.`,
    });
    registerOrganizationOperation(registry, {
      method: 'get',
      path: exportPath(collection),
      operationId: `export${resourceId}sCsv`,
      summary: `Export ${labels.title.toLowerCase()} as CSV`,
      description:
        "Every item of the list with the list's filters, sort and q, in its order; limit and offset are checked, then ignored. " +
        'The download ends early, incomplete, when the store is written meanwhile.',
      tag: 'Exports',
      request: { query: consoleQuery },
      responses: { 200: fileResponse('text/csv', csv, 'The items, as CSV.'), ...queryErrors() },
    });
  }
};
