import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RemediationPlan } from '../../../contracts/console/software';
import { consoleJson } from '../api/console-fetch';
import { openConsole } from '../test-support/console-page';

/** The steps table's rows as [rank, fix by] (its first and ninth cells), in the order shown. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const cells = within(row).getAllByRole('cell');
      return [cells[0]!.textContent, cells[8]!.textContent];
    });

describe("the plan's steps by fix-by date", () => {
  it('lists the steps by their fix-by date from the header, in the URL, each with its rank, the cumulative columns named as the plan\'s', async () => {
    const plan = await consoleJson<RemediationPlan>('/orgs/lists/remediation-plan');
    const byDate = await consoleJson<RemediationPlan>('/orgs/lists/remediation-plan?sort=fix_by');
    const latestFirst = await consoleJson<RemediationPlan>('/orgs/lists/remediation-plan?sort=-fix_by');
    expect(plan.steps.length).toBeGreaterThan(1);
    // The demo's dates put the steps in another order than the plan's, either way.
    expect(byDate.steps.map((step) => step.rank)).not.toEqual(plan.steps.map((step) => step.rank));
    const { user, search } = openConsole('/orgs/lists/remediation-plan');
    const table = await screen.findByRole('table', { name: 'Steps' });
    const shown = (steps: RemediationPlan['steps']) => steps.map((step) => [String(step.rank), step.fix_by ?? '—']);
    expect(rowsOf(table)).toEqual(shown(plan.steps));
    expect(within(table).getByRole('columnheader', { name: /^Cumulative closed$/ })).toBeTruthy();

    // A new order is a new query: the table is drawn again, so each look finds it anew.
    const steps = () => screen.getByRole('table', { name: 'Steps' });
    await user.click(within(table).getByRole('button', { name: 'Fix by' }));
    await waitFor(() => expect(search().get('sort')).toBe('fix_by'));
    await waitFor(() => expect(rowsOf(steps())).toEqual(shown(byDate.steps)));
    expect(within(steps()).getByRole('columnheader', { name: 'Fix by' }).getAttribute('aria-sort')).toBe('ascending');
    expect(within(steps()).getByRole('columnheader', { name: 'Cumulative closed in plan order' })).toBeTruthy();

    // Again: the latest first; the rank's header goes back to the plan's order and leaves the URL without a sort.
    await user.click(within(steps()).getByRole('button', { name: 'Fix by' }));
    await waitFor(() => expect(search().get('sort')).toBe('-fix_by'));
    await waitFor(() => expect(rowsOf(steps())).toEqual(shown(latestFirst.steps)));
    await user.click(within(steps()).getByRole('button', { name: 'Rank' }));
    await waitFor(() => expect(search().has('sort')).toBe(false));
    await waitFor(() => expect(rowsOf(steps())).toEqual(shown(plan.steps)));
  });
});
