import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

describe('reports', () => {
  it("makes a report of the findings list's filters with its Report button, then lists it in Reports with what it was made of", async () => {
    const { user, router } = openConsole('/orgs/lists/vulnerability-findings?severity=critical&status=open&sort=-cvss_score');
    await user.click(await screen.findByRole('button', { name: 'Report' }));
    expect(await screen.findByText(/Report made and signed/, undefined, { timeout: 15_000 })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'open it in Reports' }));
    expect(router.state.location.pathname).toBe('/orgs/lists/reports');
    const table = await screen.findByRole('table', { name: 'Reports' });
    const row = within(table).getAllByRole('row')[1]!;
    // The list's status and order are the report's to set: only the filter goes.
    expect(within(row).getByText('severity=critical')).toBeTruthy();
    expect(row.textContent).toContain('lists');
    expect(within(row).getByRole('link', { name: 'Open' }).getAttribute('href')).toMatch(/^\/app\/orgs\/lists\/reports\/[0-9a-f-]{36}$/);
    expect(within(row).getByRole('button', { name: 'Print' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Save signature' })).toBeTruthy();
  });

  it('makes a technical report with the template select, listed with its template and its appendix to save', async () => {
    const { user } = openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    await user.type(within(form).getByLabelText('Filter'), 'severity=critical');
    await user.selectOptions(within(form).getByLabelText('Template'), 'Technical');
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    const table = await screen.findByRole('table', { name: 'Reports' });
    const row = await waitFor(
      () => {
        const found = within(table).getAllByRole('row').find((candidate) => candidate.textContent?.includes('Technical'));
        expect(found).toBeTruthy();
        return found!;
      },
      { timeout: 15_000 },
    );
    expect(within(row).getByText('severity=critical')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Save appendix (CSV)' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Save appendix (JSON)' })).toBeTruthy();
  });

  it('says why a filter is refused, and makes nothing', async () => {
    const { user } = openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    const rows = async () => (await screen.findAllByRole('row').catch(() => [])).length;
    const before = await rows();
    await user.type(within(form).getByLabelText('Filter'), 'severity=urgent');
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/Invalid filter parameter "severity"/));
    expect(await rows()).toBe(before);
  });
});
