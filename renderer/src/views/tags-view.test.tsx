import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

/** The cells of a table's header row, and of each of its body rows. */
function cellCounts(table: HTMLElement): { head: number; rows: number[] } {
  const [head, ...rows] = within(table).getAllByRole('row');
  const cells = (row: HTMLElement) => within(row).queryAllByRole('columnheader').length + within(row).queryAllByRole('rowheader').length + within(row).queryAllByRole('cell').length;
  return { head: cells(head!), rows: rows.map(cells) };
}

describe('the tags view', () => {
  it("refuses a rule's glob past its bounds beside its condition, makes the corrected rule, and heads both tables with one cell per column", async () => {
    const { user } = openConsole('/orgs/tags/tags');
    await user.click(await screen.findByRole('button', { name: 'New rule…' }));
    const form = screen.getByRole('form', { name: 'New tag rule' });
    await user.type(within(form).getByLabelText('Tag'), 'component-test');
    const value = within(form).getByRole('textbox', { name: 'Value of condition 1' });
    await user.type(value, '*a'.repeat(17));
    await user.click(within(form).getByRole('button', { name: 'Make the rule' }));
    expect(await within(form).findByRole('textbox', { name: 'Value of condition 1', description: 'must hold at most 16 "*" (it holds 17)' })).toBe(value);
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByRole('alert').textContent).toBe('Not saved: correct the fields marked above.');

    await user.clear(value);
    await user.type(value, '*');
    await user.click(within(form).getByRole('button', { name: 'Make the rule' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New tag rule' })).toBeNull());

    const rules = await screen.findByRole('table', { name: 'Tag rules' });
    await within(rules).findByRole('row', { name: /^component-test/ });
    const tags = await screen.findByRole('table', { name: 'Tags' });
    await within(tags).findByRole('link', { name: 'component-test' });
    for (const table of [tags, rules]) {
      const { head, rows } = cellCounts(table);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((cells) => cells === head)).toBe(true);
    }
  });
});
