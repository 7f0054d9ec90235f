import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

/** The count of rows the list says it has. */
async function rowCount(): Promise<number> {
  const status = await screen.findByText(/^[\d,]+ rows?/);
  return Number(status.textContent!.match(/^([\d,]+)/)![1]!.replaceAll(',', ''));
}

describe('the filter bar', () => {
  it('puts a chosen filter in the URL, and the list shows what it selects', async () => {
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings');
    const bar = await screen.findByRole('search');
    const open = await rowCount();
    await user.selectOptions(within(bar).getByLabelText('Severity'), 'critical');
    expect(search().get('severity')).toBe('critical');
    await waitFor(async () => expect(await rowCount()).toBeLessThan(open));
    await user.click(within(bar).getByLabelText('Overdue only'));
    expect(search().get('overdue')).toBe('true');
    // "Any" lifts the view's default (open findings) with `any`, which the URL keeps.
    await user.selectOptions(within(bar).getByLabelText('Status'), 'Any');
    expect(search().get('status')).toBe('any');
    expect(search().get('severity')).toBe('critical');
  });

  it('applies typed text on Enter, and the default choice leaves the URL bare', async () => {
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings?status=fixed');
    const bar = await screen.findByRole('search');
    await user.type(within(bar).getByLabelText('CVE'), 'CVE-2021{Enter}');
    expect(search().get('cveId')).toBe('CVE-2021');
    await user.selectOptions(within(bar).getByLabelText('Status'), 'open');
    expect(search().has('status')).toBe(false);
    expect(search().get('cveId')).toBe('CVE-2021');
  });

  it('focuses the search box on /', async () => {
    const { user } = openConsole('/orgs/lists/vulnerability-findings');
    const searchBox = await screen.findByLabelText('Search');
    await user.keyboard('/');
    expect(document.activeElement).toBe(searchBox);
  });
});
