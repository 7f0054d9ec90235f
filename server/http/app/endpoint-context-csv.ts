import { parse } from 'csv-parse';
import { endpointContextCsvColumns, endpointCriticalitySchema, endpointTagListSchema } from '../../../contracts/console/endpoint-context.js';
import { uuidSchema } from '../../../contracts/common.js';
import { type EndpointContextLine, EndpointContextLineError, type EndpointContextRow } from '../../store/context/endpoint-context.js';
import { parseInTurns } from '../../store/derived/time-slices.js';
import { nextTurn } from '../../store/engine/next-turn.js';
import { csvLine, withoutFormulaGuard } from './csv-columns.js';

/** The most lines an import reads: every endpoint of the largest organization, with room. */
export const maxImportLines = 100_000;
/** Lines checked between two turns of the event loop. */
const rowsPerTurn = 1_000;

/** The file `exportEndpointContextCsv` answers: a header, then a line per endpoint with something set, tags joined by `;`. */
export function endpointContextCsv(rows: readonly EndpointContextRow[]): string {
  let text = csvLine([...endpointContextCsvColumns]);
  for (const row of rows) text += csvLine([row.id, row.hostname ?? '', row.tags.join(';'), row.criticality]);
  return text;
}

/** The first issue of a zod parse as a message. */
function problem(result: { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } }): string {
  const issue = result.error.issues[0]!;
  return issue.path.length ? `tag ${Number(issue.path[0]) + 1}: ${issue.message}` : issue.message;
}

/**
 * Reads an endpoint context file (RFC 4180 CSV, a header line naming its columns): `id` or
 * `hostname` (or both: the id decides when given), and `tags` (separated by `;` or `,`) and
 * `criticality`, each optional (a missing column leaves that field as it is; an empty cell
 * clears the tags or sets `normal`). Other columns are ignored, so that a CMDB's export reads as
 * it is. The first problem is thrown as EndpointContextLineError naming its line (the header is line 1).
 */
export async function parseEndpointContextCsv(text: string): Promise<EndpointContextLine[]> {
  const records: { record: string[]; info: { lines: number } }[] = [];
  // Where the last record read ends: a quote never closed is named by the line it opens on, after it.
  let lastLine = 0;
  // A piece per turn (some 300 lines of ids and tags): parsed in one go, a file of 100,000 lines
  // held the thread that answers 870-920 ms (load 4-5; 25-50 ms a turn after), one of 1,000
  // lines, the parser's first, 58-64 ms (26-47 ms after).
  const failure = await parseInTurns(
    parse({
      bom: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lastLine = context.lines;
        records.push({ record, info: { lines: context.lines } });
        return null;
      },
    }),
    text,
  );
  if (failure !== undefined) {
    const { code, lines, message } = failure as { code?: string; lines?: number; message: string };
    const line = code === 'CSV_QUOTE_NOT_CLOSED' ? lastLine + 1 : (lines ?? lastLine + 1);
    const why = code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quote opened on it is never closed' : message.replace(/ (on|at) line \d+$/, '');
    throw new EndpointContextLineError(line, `not CSV (${why})`);
  }
  if (records.length === 0) throw new EndpointContextLineError(1, `the file is empty: its first line names the columns (${endpointContextCsvColumns.join(', ')})`);
  if (records.length - 1 > maxImportLines) throw new EndpointContextLineError(maxImportLines + 2, `a file holds at most ${maxImportLines} lines`);
  const header = records[0]!;
  const column: Partial<Record<(typeof endpointContextCsvColumns)[number], number>> = {};
  header.record.forEach((name, index) => {
    const known = endpointContextCsvColumns.find((each) => each === name.trim().toLowerCase());
    if (!known) return;
    if (column[known] !== undefined) throw new EndpointContextLineError(header.info.lines, `the column "${known}" is named twice`);
    column[known] = index;
  });
  if (column.id === undefined && column.hostname === undefined) throw new EndpointContextLineError(header.info.lines, 'the header names neither an "id" nor a "hostname" column');
  const lines: EndpointContextLine[] = [];
  for (const [at, { record, info }] of records.entries()) {
    if (at === 0) continue;
    if (at % rowsPerTurn === 0) await nextTurn();
    const line = info.lines;
    const cell = (index: number | undefined) => (index === undefined ? undefined : withoutFormulaGuard(record[index]!).trim());
    const id = cell(column.id) || undefined;
    const hostname = cell(column.hostname) || undefined;
    if (id === undefined && hostname === undefined) throw new EndpointContextLineError(line, 'names no endpoint: give its id or its hostname');
    if (id !== undefined && !uuidSchema.safeParse(id).success) throw new EndpointContextLineError(line, `the id "${id}" is not a UUID`);
    const tagsCell = cell(column.tags);
    let tags: string[] | undefined;
    if (tagsCell !== undefined) {
      const parsed = endpointTagListSchema.safeParse(tagsCell.split(/[;,]/).filter((tag) => tag.trim() !== ''));
      if (!parsed.success) throw new EndpointContextLineError(line, `tags: ${problem(parsed)}`);
      tags = parsed.data;
    }
    const criticalityCell = cell(column.criticality);
    let criticality: EndpointContextLine['criticality'];
    if (criticalityCell !== undefined) {
      const parsed = endpointCriticalitySchema.safeParse(criticalityCell.toLowerCase() || 'normal');
      if (!parsed.success) throw new EndpointContextLineError(line, `criticality "${criticalityCell}" ${parsed.error.issues[0]!.message}`);
      criticality = parsed.data;
    }
    lines.push({ line, id, hostname, tags, criticality });
  }
  return lines;
}
