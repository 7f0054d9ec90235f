import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

describe("the frame of a view's data", () => {
  it('says what is loading, then the sentence of a view with nothing to show', async () => {
    openConsole('/orgs/lists/exceptions');
    expect((await screen.findByText('Loading exceptions…')).getAttribute('role')).toBe('status');
    expect(await screen.findByText('This organization has no exceptions yet.')).toBeTruthy();
    expect(screen.queryByText('Loading exceptions…')).toBeNull();
  });

  it("keeps a detail page's heading and its way back when its item fails, with the server's words and a Retry", async () => {
    const { user } = openConsole('/orgs/lists/vulnerability-findings/no-such-finding');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/finding/i);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Vulnerability finding');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: '← Vulnerability findings' })).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('alert')).textContent).toBe(alert.textContent);
  });
});
