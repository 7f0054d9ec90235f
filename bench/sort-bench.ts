/**
 * Sorted and searched console lists on a data directory, in process: for every sort key of the
 * four lists, the first page when the order is computed (first), the first page again and a page
 * half-way down once it is cached, and the free-text searches of findings. Times in ms.
 */
import { pathToFileURL } from 'node:url';
import { type CollectionName, collectionNames, collectionSchemas, collections } from '../contracts/collections.js';
import { Store } from '../server/store/store.js';

/** One measured list order or search. */
export interface SortBenchRow {
  list: string;
  query: string;
  total: number;
  first: number;
  /** CPU time of the first page, which the machine's other load does not inflate. */
  firstCpu: number;
  again: number;
  middle: number;
}

const timed = async <T>(work: () => Promise<T>): Promise<[T, number, number]> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return [result, performance.now() - started, (used.user + used.system) / 1000];
};

/** Measures every sort key (descending) and a few finding searches in organization `slug` of `dataDir`. */
export async function measureSortedLists(dataDir: string, slug: string): Promise<SortBenchRow[]> {
  const store = await Store.open({ dataDir, readOnly: true });
  try {
    const org = store.organizations.bySlug(slug);
    if (!org) throw new Error(`No organization "${slug}" in ${dataDir}`);
    const rows: SortBenchRow[] = [];
    const measure = async <C extends CollectionName>(collection: C, search: string) => {
      const parse = (offset: number) =>
        collectionSchemas[collection].console.parse(Object.fromEntries(new URLSearchParams(`${search}&limit=100&offset=${offset}`)));
      const [page, first, firstCpu] = await timed(() => store.console.listIds(org.rowId, collection, parse(0)));
      const [, again] = await timed(() => store.console.listIds(org.rowId, collection, parse(0)));
      const [, middle] = await timed(() => store.console.listIds(org.rowId, collection, parse(Math.floor(page.total / 2))));
      rows.push({ list: collections[collection].path, query: search, total: page.total, first, firstCpu, again, middle });
    };
    for (const collection of collectionNames) {
      for (const key of collections[collection].sortKeys) await measure(collection, `sort=-${key}`);
    }
    for (const search of ['status=open&sort=-cvss_score', 'q=log4j', 'q=cve-2023', 'q=host-00', 'q=remote code&sort=-severity']) await measure('findings', search);
    return rows;
  } finally {
    store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dataDir, slug = 'demo'] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: tsx bench/sort-bench.ts DATA_DIR [ORG_SLUG]');
  console.log('| list | query | total | first page (computing) | its CPU time | first page again | middle page |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of await measureSortedLists(dataDir, slug)) {
    console.log(`| ${row.list} | \`${row.query}\` | ${row.total} | ${row.first.toFixed(0)} ms | ${row.firstCpu.toFixed(0)} ms | ${row.again.toFixed(1)} ms | ${row.middle.toFixed(1)} ms |`);
  }
}
