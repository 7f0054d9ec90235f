import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { gridHeight } from '../test-support/setup';
import { openConsole } from '../test-support/console-page';

const findingsList = '/orgs/lists/vulnerability-findings';

/** The 0-based indexes of the rows in the DOM (aria-rowindex counts the header row as 1). */
const rowsInDom = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('row')
    .map((row) => Number(row.getAttribute('aria-rowindex')) - 2)
    .filter((index) => index >= 0);

/** The row of a 0-based index, with its cells once its page has arrived. */
async function loadedRow(grid: HTMLElement, index: number): Promise<HTMLElement> {
  return waitFor(() => {
    const row = grid.querySelector<HTMLElement>(`[role=row][aria-rowindex="${index + 2}"]`);
    expect(row).not.toBeNull();
    expect(within(row!).queryByText('Loading…')).toBeNull();
    return row!;
  });
}

describe('the virtual table', () => {
  it('renders only the rows in view, and those of a scroll position once their page arrives, which the URL keeps', async () => {
    const { search } = openConsole(findingsList);
    const grid = await screen.findByRole('grid', { name: 'Vulnerability findings' });
    const first = await loadedRow(grid, 0);
    const total = Number(grid.getAttribute('aria-rowcount')) - 1;
    // More rows than one page of 100: the rows far down are on a page not fetched yet.
    expect(total).toBeGreaterThan(250);
    expect(screen.getByText(`${total.toLocaleString('en-US')} rows`)).toBeTruthy();
    const rowHeight = parseFloat(first.style.height);
    const inView = Math.ceil(gridHeight / rowHeight);
    expect(Math.min(...rowsInDom(grid))).toBe(0);
    // The rows in view and a few beyond (the overscan), not the whole list.
    expect(Math.max(...rowsInDom(grid))).toBeLessThan(inView + 12);

    grid.scrollTop = 230 * rowHeight;
    fireEvent.scroll(grid);
    const far = await loadedRow(grid, 230);
    expect(within(far).getAllByRole('gridcell').length).toBeGreaterThan(3);
    expect(rowsInDom(grid)).not.toContain(0);
    expect(Math.min(...rowsInDom(grid))).toBeGreaterThan(215);
    await waitFor(() => expect(search().get('offset')).toBe('230'));
  });

  it('moves its selected row with the arrows and j, and opens it with Enter, its position kept for Back', async () => {
    const { user, router, search } = openConsole(findingsList);
    const grid = await screen.findByRole('grid', { name: 'Vulnerability findings' });
    await loadedRow(grid, 2);
    grid.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByText(/row 1 selected \(Enter opens it\)/)).toBeTruthy();
    await user.keyboard('jj{ArrowUp}');
    expect(screen.getByText(/row 2 selected/)).toBeTruthy();
    expect(grid.querySelector('[aria-selected=true]')?.getAttribute('aria-rowindex')).toBe('3');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toMatch(new RegExp(`^${findingsList}/[^/]+$`)));
    router.navigate(-1);
    await waitFor(() => expect(search().get('row')).toBe('1'));
    expect(await screen.findByText(/row 2 selected/)).toBeTruthy();
  });
});

describe('the focus across a new search', () => {
  it('goes to the new table when the one that had it is replaced (a search rendered after ↓ reached the old rows)', async () => {
    const { router } = openConsole(findingsList);
    const old = await screen.findByRole('grid', { name: 'Vulnerability findings' });
    await loadedRow(old, 0);
    old.focus();
    await router.navigate(`${findingsList}?sort=cve_id`);
    await waitFor(() => expect(screen.getByRole('grid', { name: 'Vulnerability findings' })).not.toBe(old), { timeout: 10_000 });
    const replacement = screen.getByRole('grid', { name: 'Vulnerability findings' });
    expect(document.activeElement).toBe(replacement);
  });

  it('stays where the user put it meanwhile', async () => {
    const { router } = openConsole(findingsList);
    const old = await screen.findByRole('grid', { name: 'Vulnerability findings' });
    await loadedRow(old, 0);
    old.focus();
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await router.navigate(`${findingsList}?sort=cve_id`);
    search.focus();
    await waitFor(() => expect(screen.getByRole('grid', { name: 'Vulnerability findings' })).not.toBe(old), { timeout: 10_000 });
    expect(document.activeElement).toBe(search);
  });
});
