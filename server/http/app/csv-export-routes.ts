import express from 'express';
import type { z } from 'zod';
import type { ConsoleListQuery } from '../../store/console-queries.js';
import type { Store } from '../../store/store.js';
import { parseQuery } from '../query-parameters.js';
import { consoleCollections } from './console-collections.js';
import { csvColumns, csvLine } from './csv-columns.js';
import { organizationOf } from './organization-param.js';

/**
 * `GET /app/orgs/:slug/export/<collection>.csv`: every item of a filtered list as CSV, in the
 * list's order, with the list's filters, `sort` and `q`. The answer is streamed a chunk at a
 * time, yielding between chunks so that the server keeps answering while a million rows go out;
 * a write to the store during the export ends the download as failed rather than mixing data.
 */
export function csvExportRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  for (const route of consoleCollections) {
    router.get(`/export/${route.path}.csv`, async (req, res) => {
      // limit and offset are validated as in the list, then ignored: the export is every page.
      const query = parseQuery(req, route.schema as z.ZodObject);
      const organization = organizationOf(res);
      const columns = csvColumns[route.collection];
      const list = { collection: route.collection, query } as ConsoleListQuery;
      const version = store.version;
      res.status(200).set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${organization.slug}-${route.path}.csv"`,
      });
      res.write(csvLine(columns.map((column) => column.header)));
      for (const ids of store.console.listAllIds(organization.rowId, list)) {
        if (store.version !== version || res.destroyed) return void res.destroy();
        let text = '';
        for (const id of ids) {
          const json = store.inventory.get(route.collection, organization.rowId, id);
          if (json === undefined) continue;
          const item = JSON.parse(json) as Record<string, unknown>;
          text += csvLine(columns.map((column) => column.value(item)));
        }
        if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  }
  return router;
}
