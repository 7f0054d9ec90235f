import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

const rule = 'Type a whole number of days from 1 to 3650, or leave it empty for no deadline.';

describe('the deadlines form', () => {
  it('marks each refused field with its rule and saves nothing, then saves corrected days', async () => {
    const { user } = openConsole('/orgs/deadlines/remediation-performance');
    const form = await screen.findByRole('form', { name: 'Deadlines' });
    expect(form.textContent).toContain('These are the default deadlines: none have been saved for this organization yet.');
    const high = within(form).getByRole('textbox', { name: 'High' });
    const medium = within(form).getByRole('textbox', { name: 'Medium' });
    await user.clear(high);
    await user.type(high, '0');
    await user.clear(medium);
    await user.type(medium, 'soon');
    await user.click(within(form).getByRole('button', { name: 'Save deadlines' }));
    expect(await within(form).findByRole('textbox', { name: 'High', description: rule })).toBe(high);
    expect(within(form).getByRole('textbox', { name: 'Medium', description: rule })).toBe(medium);
    expect(medium.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByRole('alert').textContent).toBe('Correct the fields marked above: nothing was saved.');
    expect(form.textContent).toContain('These are the default deadlines');

    await user.clear(high);
    await user.type(high, '20');
    await user.clear(medium);
    await user.type(medium, '120');
    await user.click(within(form).getByRole('button', { name: 'Save deadlines' }));
    expect(await screen.findByText('Saved: the figures and due dates follow the new deadlines.')).toBeTruthy();
    // The form starts afresh from what was saved: the days stay, no field is marked.
    const saved = screen.getByRole('form', { name: 'Deadlines' });
    await waitFor(() => expect(within(saved).getByRole('textbox', { name: 'High' })).toHaveProperty('value', '20'));
    expect(within(saved).getByRole('textbox', { name: 'Medium' }).getAttribute('aria-invalid')).toBeNull();
    expect(saved.textContent).toMatch(/Saved \w/);
  });
});
