import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { consoleJson } from '../api/console-fetch';
import { openConsole } from '../test-support/console-page';

describe('the filter by the day a CVE entered a KEV catalog', () => {
  it('asks the day on a calendar, lists the findings the API keeps for it, and clears it', async () => {
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings?status=open');
    const day = await screen.findByLabelText('Known exploited since');
    expect((day as HTMLInputElement).type).toBe('date');
    // A calendar's value comes whole: typed into jsdom's date field, it is set at once.
    await user.type(day, '2000-01-01');
    await waitFor(() => expect(search().get('kevAddedSince')).toBe('2000-01-01'));
    // What the API keeps for the day: the rows of the grid, or its empty message (no catalog imported, none).
    const { total } = await consoleJson<{ total: number }>('/orgs/lists/vulnerability-findings?status=open&kevAddedSince=2000-01-01&limit=1');
    const rows = () => {
      const grid = screen.queryByRole('grid', { name: 'Vulnerability findings' });
      if (grid) return Number(grid.getAttribute('aria-rowcount')) - 1;
      return screen.queryByText('No findings match these filters.') ? 0 : undefined;
    };
    await waitFor(() => expect(rows()).toBe(total));
    await user.clear(day);
    await waitFor(() => expect(search().has('kevAddedSince')).toBe(false));
  });
});
