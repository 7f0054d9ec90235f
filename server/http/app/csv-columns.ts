import { endpointSchema, operatingSystemSchema } from '../../schemas/endpoint.js';
import { remediationTargetSchema } from '../../schemas/remediation-target.js';
import { scopeSchema } from '../../schemas/scope.js';
import { vulnerabilityFindingSchema } from '../../schemas/vulnerability-finding.js';
import type { Collection } from '../../store/inventory-reads.js';

type Item = Record<string, unknown>;

/** A CSV column: its header and how it is read from an item's JSON. */
export interface CsvColumn {
  header: string;
  value: (item: Item) => unknown;
}

const field = (name: string): CsvColumn => ({ header: name, value: (item) => item[name] });

/**
 * The columns of each collection: every field of its resource, in the schema's order.
 * The operating system is spread over `operating_system.*` columns, CVE lists are joined with
 * spaces, and a scope's filters stay JSON, as they have no fixed set of fields.
 */
export const csvColumns: Record<Collection, CsvColumn[]> = {
  endpoints: Object.keys(endpointSchema.shape).flatMap((name) =>
    name === 'operating_system'
      ? Object.keys(operatingSystemSchema.shape).map((sub) => ({
          header: `operating_system.${sub}`,
          value: (item: Item) => (item.operating_system as Item | undefined)?.[sub],
        }))
      : [field(name)],
  ),
  remediationTargets: Object.keys(remediationTargetSchema.shape).map((name) =>
    name === 'associated_cves' ? { header: name, value: (item: Item) => (item[name] as string[]).join(' ') } : field(name),
  ),
  scopes: Object.keys(scopeSchema.shape).map(field),
  findings: Object.keys(vulnerabilityFindingSchema.shape).map(field),
};

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (starting with
 * = + - @ or a control character) is prefixed with an apostrophe: a hostname or title from a
 * remote tenant must not become a formula on the analyst's machine.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
