import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, inject, it } from 'vitest';
import type { ConsoleItem } from '../../../contracts/collections';
import type { FixBySummary } from '../../../contracts/console/fix-by';
import { openConsole } from '../test-support/console-page';

const { url, token } = inject('consoleServer');

/** What the console API answers, read beside the page to compare what it shows. */
async function app<T>(path: string): Promise<T> {
  const response = await fetch(`${url}/app${path}`, { headers: { 'x-console-token': token } });
  return (await response.json()) as T;
}

describe('fix-by dates in the console', () => {
  it("shows on a finding's page each input of its BOD 26-04 path with its source, then its outcome and date", async () => {
    const [finding] = (await app<{ data: ConsoleItem<'findings'>[] }>('/orgs/lists/vulnerability-findings?status=open&limit=1')).data;
    if (!finding) throw new Error('no open finding');
    openConsole(`/orgs/lists/vulnerability-findings/${finding.id}`);
    const path = await screen.findByRole('list', { name: 'BOD 26-04 path' });
    const steps = within(path).getAllByRole('listitem').map((item) => item.textContent);
    expect(steps.slice(0, 4)).toEqual(
      finding.fix_by_path.slice(0, 4).map((step) => `${step.input}: ${step.value} (${step.source}${step.since && !step.assumed ? `, since ${step.since}` : ''})`),
    );
    expect(steps[4]).toBe(`${finding.bod2604_outcome}${finding.fix_by ? `, by ${finding.fix_by}` : ': no date'}`);
    const decision = screen.getByRole('list', { name: 'Coordinator decision path' });
    expect(decision.textContent).toContain(`Coordinator decision: ${finding.ssvc_decision}`);
  });

  it('saves the deadline policy and shows the findings due in 3, 14 and 60 days', async () => {
    const { user } = openConsole('/orgs/agent/remediation-performance');
    const form = await screen.findByRole('form', { name: 'Deadline policy' });
    expect(form.textContent).toContain('These are the defaults');
    await user.selectOptions(within(form).getByLabelText('Deadlines follow'), 'bod-26-04');
    await user.click(within(form).getByRole('button', { name: 'Save deadline policy' }));
    expect(await screen.findByText('Saved: due dates and outcomes follow the new policy.')).toBeTruthy();
    expect((await app<{ deadline_policy: string }>('/orgs/agent/fix-by-settings')).deadline_policy).toBe('bod-26-04');
    const summary = await app<FixBySummary>('/orgs/agent/fix-by-summary');
    const counts = await screen.findByRole('region', { name: 'Fix-by dates' });
    await waitFor(() => expect(counts.textContent).toContain(`${summary.due_within.days_14} due in 14 days`));
    expect(counts.textContent).toContain(`${summary.on_upgrade} can wait for the next upgrade`);
  });
});
