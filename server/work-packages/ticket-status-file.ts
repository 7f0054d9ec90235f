import { parse } from 'csv-parse';
import type { StatusNameMapping } from '../../contracts/console/work-packages.js';
import { type StatusMappedBy, type TicketStatus, type TicketSystem, externalIdPattern, ticketStatusImportBounds } from '../../contracts/console/work-package-basics.js';
import { withoutFormulaGuard } from '../../contracts/csv-cells.js';
import { parseInTurns } from '../store/derived/time-slices.js';
import { nextTurn } from '../store/engine/next-turn.js';

/** A problem of a status file, on the line it names (the header is line 1): nothing of the file is stored. */
export class TicketStatusFileError extends Error {
  constructor(
    readonly line: number,
    why: string,
  ) {
    super(`line ${line}: ${why}`);
  }
}

/** One row of a ticket system's export, read. */
export interface TicketRow {
  line: number;
  key: string;
  /** What the console reads the row's status as; null when nothing maps it (the row is listed, not imported). */
  status: TicketStatus | null;
  /** How {@link status} was found. */
  mappedBy: StatusMappedBy;
  systemStatus: string;
  /** Jira's Status Category of the row; empty when the file has no such column. */
  statusCategory: string;
  resolution: string;
  resolvedAt: string | null;
  /** The work package's external id: its column, or a label that is one; null when the row names none. */
  externalId: string | null;
}

/** What a status file holds: its ticket system and its rows. */
export interface TicketStatusFile {
  system: TicketSystem;
  rows: TicketRow[];
}

/** The columns each system's export names, by what they hold (compared without case). */
const columnNames: Record<TicketSystem, Record<'key' | 'status' | 'category' | 'resolution' | 'resolved' | 'externalId' | 'labels', string[]>> = {
  jira: {
    key: ['issue key'],
    status: ['status'],
    category: ['status category'],
    resolution: ['resolution'],
    resolved: ['resolved'],
    externalId: ['custom field (external id)', 'external id'],
    labels: ['labels'],
  },
  servicenow: {
    key: ['number'],
    status: ['state'],
    category: [],
    resolution: ['close_code', 'close code', 'resolution code'],
    resolved: ['closed_at', 'closed', 'resolved_at', 'resolved'],
    externalId: ['u_external_id', 'external id'],
    labels: [],
  },
};

/** Jira's three status categories, which every status of a workflow, however named, belongs to. */
const jiraStatusCategories: Record<string, TicketStatus> = { 'to do': 'ticketed', 'in progress': 'in-progress', done: 'done' };
/** Jira's statuses of its default workflows. */
const jiraStatuses: Record<string, TicketStatus> = {
  'to do': 'ticketed',
  open: 'ticketed',
  backlog: 'ticketed',
  new: 'ticketed',
  reopened: 'ticketed',
  'selected for development': 'ticketed',
  'in progress': 'in-progress',
  'in review': 'in-progress',
  'under review': 'in-progress',
  blocked: 'in-progress',
  done: 'done',
  closed: 'done',
  resolved: 'done',
  complete: 'done',
  completed: 'done',
};
/** Jira resolutions that close an issue without the work done. */
const jiraWontDo = new Set(["won't do", "won't fix", 'declined', 'duplicate', 'cannot reproduce', 'incomplete', 'rejected', 'obsolete']);

/** ServiceNow's states of incidents and tasks, by label and by number. */
const serviceNowStates: Record<string, TicketStatus> = {
  new: 'ticketed',
  open: 'ticketed',
  pending: 'ticketed',
  '1': 'ticketed',
  'in progress': 'in-progress',
  'work in progress': 'in-progress',
  'on hold': 'in-progress',
  '2': 'in-progress',
  '3': 'in-progress',
  resolved: 'done',
  closed: 'done',
  'closed complete': 'done',
  '6': 'done',
  '7': 'done',
  canceled: 'wont-do',
  cancelled: 'wont-do',
  'closed incomplete': 'wont-do',
  'closed skipped': 'wont-do',
  '8': 'wont-do',
};

/** The status a table of names gives `name` (without case), if it has one: a name such as "constructor" is no entry. */
function named(table: Record<string, TicketStatus>, name: string): TicketStatus | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const keyPatterns: Record<TicketSystem, RegExp> = { jira: /^[A-Z][A-Z0-9_]{0,49}-[1-9]\d{0,9}$/, servicenow: /^[A-Z]{2,12}\d{3,12}$/ };
const keyExamples: Record<TicketSystem, string> = { jira: 'PROJ-123', servicenow: 'INC0012345' };

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A date of the file as an ISO instant (UTC): Jira's default `dd/MMM/yy h:mm a`, ServiceNow's
 * `yyyy-MM-dd HH:mm:ss`, or ISO 8601; undefined when it is none of them.
 */
export function ticketDate(text: string): string | undefined {
  const jira = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}) (\d{1,2}):(\d{2}) ([AP]M)$/i.exec(text);
  let ms = NaN;
  if (jira) {
    const [, day, month, year, hour, minute, half] = jira;
    const monthIndex = months.indexOf(month!.toLowerCase());
    const hours = (Number(hour) % 12) + (half!.toUpperCase() === 'PM' ? 12 : 0);
    if (monthIndex >= 0 && Number(hour) >= 1 && Number(hour) <= 12) ms = Date.UTC(2000 + Number(year), monthIndex, Number(day), hours, Number(minute));
    if (new Date(ms).getUTCDate() !== Number(day)) ms = NaN;
  } else if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const iso = text.replace(' ', 'T');
    ms = Date.parse(/T.*(Z|[+-]\d{2}:?\d{2})$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
    // A month or day out of range is no date (Date.parse answers NaN, or rolls 31 February over into March).
    if (!Number.isNaN(ms) && text.slice(0, 10) !== new Date(ms).toISOString().slice(0, 10) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text)) ms = NaN;
  }
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Rows checked between turns of the event loop. */
const rowsPerTurn = 1_000;

/**
 * Reads the CSV's records with the line each starts on, fed to csv-parse's stream a piece of
 * lines at a time with a turn of the event loop between pieces, so that the server answers
 * meanwhile; a broken quote or the row cap is named by its line.
 */
async function records(text: string): Promise<{ cells: string[]; line: number }[]> {
  const read: { cells: string[]; line: number }[] = [];
  let lastLine = 0;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: ticketStatusImportBounds.cell * 64,
    on_record: (record: string[], context) => {
      if (read.length > ticketStatusImportBounds.rows) {
        throw new TicketStatusFileError(lastLine + 1, `a status file holds at most ${ticketStatusImportBounds.rows.toLocaleString('en-US')} rows`);
      }
      read.push({ cells: record, line: lastLine + 1 });
      lastLine = context.lines;
      return null;
    },
  });
  const failure = await parseInTurns(parser, text);
  if (failure !== undefined) {
    if (failure instanceof TicketStatusFileError) throw failure;
    const { code, message } = failure as { code?: string; message: string };
    const why = code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quote opened on it is never closed' : message.replace(/ (on|at) line \d+$/, '');
    throw new TicketStatusFileError(lastLine + 1, `not CSV (${why})`);
  }
  return read;
}

/**
 * Reads a status file: a Jira CSV export (issue key, status, resolution, resolved, the external
 * id's column or labels) or a ServiceNow CSV export (number, state, close code, closed at,
 * u_external_id), told apart by their header. An untrusted file: the first problem is thrown
 * as {@link TicketStatusFileError} naming its line, and the caller stores nothing. A row's
 * status is read, in this order, through the organization's own names (`ownNames`), Jira's
 * Status Category column, then the names of the default workflows; one none of them maps is
 * left null, never guessed.
 */
export async function parseTicketStatusFile(text: string, ownNames: readonly StatusNameMapping[] = []): Promise<TicketStatusFile> {
  const all = await records(text);
  if (all.length === 0) throw new TicketStatusFileError(1, 'the file is empty: its first line names the columns (Jira: Issue key, Status; ServiceNow: number, state)');
  const [header, ...rows] = all;
  const names = header!.cells.map((name) => name.trim().toLowerCase());
  const system: TicketSystem | undefined = names.includes('issue key') ? 'jira' : names.includes('number') ? 'servicenow' : undefined;
  if (!system) throw new TicketStatusFileError(header!.line, 'the header names neither Jira\'s "Issue key" nor ServiceNow\'s "number" column');
  const wanted = columnNames[system];
  const columns = (kind: keyof typeof wanted) => names.flatMap((name, index) => (wanted[kind].includes(name) ? [index] : []));
  const only = (kind: keyof typeof wanted) => {
    const found = columns(kind);
    if (found.length > 1 && kind !== 'labels') throw new TicketStatusFileError(header!.line, `the column "${header!.cells[found[1]!]}" is named twice`);
    return found[0];
  };
  const key = only('key')!;
  const status = only('status');
  if (status === undefined) throw new TicketStatusFileError(header!.line, `the header names no ${system === 'jira' ? '"Status"' : '"state"'} column`);
  const category = only('category');
  const resolution = only('resolution');
  const resolved = only('resolved');
  const externalId = only('externalId');
  const labels = columns('labels');
  if (externalId === undefined && labels.length === 0) {
    throw new TicketStatusFileError(header!.line, `the header names no external id column (${wanted.externalId.map((name) => `"${name}"`).join(' or ')}${system === 'jira' ? ', or "Labels"' : ''})`);
  }
  const own: Record<string, TicketStatus> = {};
  for (const mapping of ownNames) if (mapping.system === system) own[mapping.status.toLowerCase()] = mapping.maps_to;
  const builtIn = system === 'jira' ? jiraStatuses : serviceNowStates;
  const seen = new Map<string, number>();
  const read: TicketRow[] = [];
  for (const [index, { cells, line }] of rows.entries()) {
    if (index % rowsPerTurn === rowsPerTurn - 1) await nextTurn();
      const cell = (index: number | undefined) => {
        const value = index === undefined ? '' : withoutFormulaGuard(cells[index] ?? '').trim();
        if (value.length > ticketStatusImportBounds.cell) throw new TicketStatusFileError(line, `a cell holds more than ${ticketStatusImportBounds.cell} characters`);
        return value;
      };
      const ticketKey = cell(key);
      if (!keyPatterns[system].test(ticketKey)) {
        throw new TicketStatusFileError(line, ticketKey ? `"${ticketKey.slice(0, 60)}" is not a ${system === 'jira' ? 'Jira issue key' : 'ServiceNow number'} (like ${keyExamples[system]})` : 'the ticket has no key');
      }
      const systemStatus = cell(status);
      if (!systemStatus) throw new TicketStatusFileError(line, 'the ticket has no status');
      const statusCategory = cell(category);
      const resolutionText = cell(resolution);
      const mapped: [TicketStatus | undefined, StatusMappedBy][] = [
        [named(own, systemStatus), 'setting'],
        [named(jiraStatusCategories, statusCategory), 'status-category'],
        [named(builtIn, systemStatus), 'built-in'],
      ];
      const [known, mappedBy] = mapped.find(([each]) => each !== undefined) ?? [undefined, 'none'];
      const wontDo = system === 'jira' ? jiraWontDo.has(resolutionText.toLowerCase()) : /^not solved|^cancel/i.test(resolutionText);
      const ticketStatus = known === 'done' && wontDo ? 'wont-do' : (known ?? null);
      const resolvedText = cell(resolved);
      const resolvedAt = resolvedText === '' ? null : ticketDate(resolvedText);
      if (resolvedAt === undefined) throw new TicketStatusFileError(line, `"${resolvedText.slice(0, 60)}" is not a date (dd/MMM/yy h:mm a, yyyy-MM-dd HH:mm:ss or ISO 8601)`);
      const fromColumn = cell(externalId);
      const fromLabels = labels.map((index) => cell(index)).find((label) => externalIdPattern.test(label));
      const id = fromColumn || fromLabels || null;
      if (id !== null) {
        const before = seen.get(id);
        if (before !== undefined) throw new TicketStatusFileError(line, `the external id ${id} is on line ${before} too: one ticket per work package`);
        seen.set(id, line);
      }
    read.push({ line, key: ticketKey, status: ticketStatus, mappedBy, systemStatus, statusCategory, resolution: resolutionText, resolvedAt, externalId: id });
  }
  return { system, rows: read };
}
