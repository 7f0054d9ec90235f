/**
 * CSV cells and lines (RFC 4180) guarded against spreadsheet formulas: what every CSV the product
 * writes is made of, the console's exports (server/http/app) and the work packages' (server/work-packages).
 */
/**
 * Text a spreadsheet would run as a formula, or that hides where it starts (OWASP's CSV
 * injection list, widened): a control character first (tab, CR, LF, ...), or `=`, `+`, `-`, `@`
 * or their full-width forms (＝ ＋ － ＠, which spreadsheets take as the ASCII ones) after any
 * white space, Unicode spaces and zero-width characters included. The run of apostrophes in
 * front is part of it, so that a value that starts with the guard itself (`'=x`) is guarded too
 * and reads back as it was ({@link withoutFormulaGuard}).
 */
const runsAsFormula = /^'*(?:\p{Cc}|[\s\u180e\u200b-\u200d\u2060]*[=+\-@\uff1d\uff0b\uff0d\uff20])/u;

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula ({@link runsAsFormula})
 * is prefixed with an apostrophe: a hostname or title from a remote tenant must not become a
 * formula on the analyst's machine.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (runsAsFormula.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell's text as {@link csvCell} was given it: exactly the apostrophe it added, removed. */
export function withoutFormulaGuard(cell: string): string {
  return cell.startsWith("'") && runsAsFormula.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
