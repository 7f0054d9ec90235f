import { act, render } from '@testing-library/react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useTableUrl, type TableUrl } from './use-table-url';

/** Renders a view's table URL state at `/list?<search>` and hands it to the test. */
function renderTableUrl(search: string): () => TableUrl {
  window.history.replaceState(null, '', `/list?${search}`);
  let latest: TableUrl | undefined;
  function Table() {
    latest = useTableUrl();
    return null;
  }
  render(<RouterProvider router={createBrowserRouter([{ path: '/list', element: <Table /> }])} />);
  return () => latest!;
}

describe('useTableUrl', () => {
  it("keeps the table's scroll position and selected row in the URL", async () => {
    const table = renderTableUrl('sort=endpoint_hostname');
    await act(() => table().onViewChange({ topRow: 500, activeRow: 520 }));
    expect(window.location.search).toBe('?sort=endpoint_hostname&offset=500&row=520');
  });

  it('gives no position to an order the address bar has and the table was not rendered for', async () => {
    const table = renderTableUrl('sort=endpoint_hostname');
    // A header was clicked: the address bar has the new order, the router has not rendered it yet.
    window.history.replaceState(window.history.state, '', '/list?sort=-endpoint_hostname');
    await act(() => table().onViewChange({ topRow: 500, activeRow: 520 }));
    expect(window.location.search).toBe('?sort=-endpoint_hostname');
  });
});
