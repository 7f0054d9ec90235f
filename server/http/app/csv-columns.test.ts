/**
 * The CSV formula guard (csvCell) and its reverse (withoutFormulaGuard): every start a
 * spreadsheet runs as a formula is written behind an apostrophe, and the reader takes exactly
 * that apostrophe off, so any text reads back as it was written.
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trialCount } from '../../test/support/trial-count.js';
import { csvCell, withoutFormulaGuard } from './csv-columns.js';

/** What a reader of the file sees in the cell: csv-parse's field, as the import reads it. */
const readBack = (cell: string) => (parse(`${cell}\r\n`, { relax_column_count: true }) as string[][])[0]?.[0] ?? '';

const formulaStarts = ['=', '+', '-', '@', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
const spaces = [' ', '\t', '\r', '\n', '\u00a0', '\u2002', '\u2009', '\u3000', '\u200b', '\u2060', '\ufeff', '\u180e', '\u2028'];

describe('csvCell', () => {
  it.each(formulaStarts)('guards text starting with %j, alone or after any white space', (start) => {
    expect(readBack(csvCell(`${start}cmd|' /C calc'!A0`))).toBe(`'${start}cmd|' /C calc'!A0`);
    for (const space of spaces) {
      expect(readBack(csvCell(`${space}${start}1+1`)), JSON.stringify(space)).toBe(`'${space}${start}1+1`);
      expect(readBack(csvCell(`${space}${space}${start}1`)), JSON.stringify(space)).toBe(`'${space}${space}${start}1`);
    }
  });

  it('guards a control character first (tab, CR, LF, ...) whatever follows', () => {
    for (const text of ['\tx', '\rx', '\nx', '\u0000x', '\u001bx', '\u007fx']) expect(readBack(csvCell(text)), JSON.stringify(text)).toBe(`'${text}`);
  });

  it('guards text that starts with the guard itself, so that it reads back as it was', () => {
    expect(csvCell("'=x")).toBe("''=x");
    expect(csvCell("'' -1")).toBe("''' -1");
  });

  it('leaves text, numbers and booleans that run nothing as they are', () => {
    for (const text of ['host-01', 'a=b', 'x-1', ' leading space', '\u3000word', "'quoted", '1e5', '', 'é=']) expect(csvCell(text)).toBe(text.length && /[",\r\n]/.test(text) ? `"${text}"` : text);
    expect([csvCell(-1), csvCell(true), csvCell(null), csvCell(undefined)]).toEqual(['-1', 'true', '', '']);
  });
});

describe('withoutFormulaGuard', () => {
  it('takes off exactly the apostrophe csvCell added, and nothing from text it did not guard', () => {
    expect(withoutFormulaGuard("'=1")).toBe('=1');
    expect(withoutFormulaGuard("''=1")).toBe("'=1");
    expect(withoutFormulaGuard("' \uff1d1")).toBe(' \uff1d1');
    expect(withoutFormulaGuard("'quoted")).toBe("'quoted");
    expect(withoutFormulaGuard("'")).toBe("'");
  });

  it('reads any text back as it was written (a property)', () => {
    const pieces = fc.constantFrom(...formulaStarts, ...spaces, "'", 'a', ',', '"', ';', '1');
    const text = fc.oneof(fc.string({ unit: pieces, maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
    fc.assert(
      fc.property(text, (value) => withoutFormulaGuard(readBack(csvCell(value))) === value),
      { numRuns: trialCount(2_000, 50_000) },
    );
  });
});
