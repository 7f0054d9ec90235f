import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bod2604Outcomes, ssvcDecisions } from '../../../contracts/ssvc-tables';
import { consoleJson } from '../api/console-fetch';
import { openConsole } from '../test-support/console-page';

/** The options of a select: its values, "Any" (empty) first. */
const optionsOf = (select: HTMLElement) => within(select).getAllByRole('option').map((option) => (option as HTMLOptionElement).value);

/** The rows a list's grid says it holds, once they are those the console's API answers for `query`. */
async function expectRowsOf(label: string, path: string, query: string) {
  const { total } = await consoleJson<{ total: number }>(`/orgs/lists/${path}?${query}&limit=1`);
  await waitFor(() => expect(Number(screen.getByRole('grid', { name: label }).getAttribute('aria-rowcount')) - 1).toBe(total));
  return total;
}

describe('the filters by fix-by fields', () => {
  it('asks the outcome and the decision of findings by selects of exactly the contract values, and keeps the choice in the URL', async () => {
    // The outcome and decision of an open finding: the list filtered by both holds it at least.
    const [finding] = (await consoleJson<{ data: { bod2604_outcome: string; ssvc_decision: string }[] }>('/orgs/lists/vulnerability-findings?status=open&limit=1')).data;
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings');
    const outcome = await screen.findByRole('combobox', { name: 'BOD 26-04 outcome' });
    const decision = screen.getByRole('combobox', { name: 'SSVC decision' });
    expect(optionsOf(outcome)).toEqual(['', ...bod2604Outcomes]);
    expect(optionsOf(decision)).toEqual(['', ...ssvcDecisions]);
    await user.selectOptions(outcome, finding!.bod2604_outcome);
    await waitFor(() => expect(search().get('bod2604Outcome')).toBe(finding!.bod2604_outcome));
    await user.selectOptions(decision, finding!.ssvc_decision);
    await waitFor(() => expect(search().get('ssvcDecision')).toBe(finding!.ssvc_decision));
    const query = new URLSearchParams({ status: 'open', bod2604Outcome: finding!.bod2604_outcome, ssvcDecision: finding!.ssvc_decision });
    expect(await expectRowsOf('Vulnerability findings', 'vulnerability-findings', query.toString())).toBeGreaterThan(0);
  });

  it('asks the last fix-by day of endpoints on a calendar, lists the endpoints the API keeps for it, and clears it', async () => {
    const { user, search } = openConsole('/orgs/lists/endpoints');
    const day = await screen.findByLabelText('With a finding of fix-by date on or before');
    expect((day as HTMLInputElement).type).toBe('date');
    // A calendar's value comes whole: typed into jsdom's date field, it is set at once.
    await user.type(day, '2099-12-31');
    await waitFor(() => expect(search().get('fixByBefore')).toBe('2099-12-31'));
    expect(await expectRowsOf('Endpoints', 'endpoints', 'fixByBefore=2099-12-31')).toBeGreaterThan(0);
    await user.clear(day);
    await waitFor(() => expect(search().has('fixByBefore')).toBe(false));
  });
});
