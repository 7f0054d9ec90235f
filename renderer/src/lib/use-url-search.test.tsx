import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { setOrRemove, useUrlSearch } from './use-url-search';

/** Two controls changed before the router renders the first change: Enter in a text filter, then a select at once. */
function TwoChanges() {
  const { search, changeSearch } = useUrlSearch();
  return (
    <button
      type="button"
      onClick={() => {
        changeSearch((next) => setOrRemove(next, 'cveId', 'CVE-2021'));
        changeSearch((next) => setOrRemove(next, 'status', ''));
      }}
    >
      {search.toString() || 'bare'}
    </button>
  );
}

describe('useUrlSearch', () => {
  it('keeps a change the router has not rendered yet when another follows it', async () => {
    const router = createMemoryRouter([{ path: '/list', element: <TwoChanges /> }], { initialEntries: ['/list?status=fixed'] });
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('button'));
    expect(router.state.location.search).toBe('?cveId=CVE-2021');
    expect(await screen.findByRole('button', { name: 'cveId=CVE-2021' })).toBeTruthy();
  });
});
