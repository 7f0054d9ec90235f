import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

const slug = 'views';

describe('saved views', () => {
  it("saves a filtered list's filters under a name, without its table position, and opens them from the saved views", async () => {
    const { user, router } = openConsole(`/orgs/${slug}/vulnerability-findings?severity=critical&status=any&offset=0`);
    await user.click(await screen.findByRole('button', { name: 'Save view' }));
    const form = screen.getByRole('form', { name: 'Save view' });
    await user.type(within(form).getByLabelText('View name'), 'Every critical{Enter}');
    const saved = await screen.findByText(/^Saved as “Every critical”/);
    expect(within(saved).getByRole('link', { name: 'Saved views' }).getAttribute('href')).toBe(`/orgs/${slug}/saved-views`);

    // The same name again, in other case: refused beside the field, nothing saved.
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    await user.type(within(screen.getByRole('form', { name: 'Save view' })).getByLabelText('View name'), 'EVERY CRITICAL{Enter}');
    expect((await screen.findByRole('alert')).textContent).toMatch(/already named "EVERY CRITICAL"/);

    await user.click(within(screen.getByRole('navigation')).getByRole('link', { name: 'Saved views' }));
    const row = await screen.findByRole('row', { name: /Every critical/ });
    expect(within(row).getByText('Vulnerability findings')).toBeTruthy();
    expect(within(row).getByText('severity: critical · status: any')).toBeTruthy();
    await user.click(within(row).getByRole('link', { name: 'Every critical' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/orgs/${slug}/vulnerability-findings`));
    expect(router.state.location.search).toBe('?severity=critical&status=any');
  });

  it("saves the plan's filters, then renames and deletes the view", async () => {
    const { user } = openConsole(`/orgs/${slug}/remediation-plan?criticality=high`);
    await user.click(await screen.findByRole('button', { name: 'Save view' }));
    await user.type(within(screen.getByRole('form', { name: 'Save view' })).getByLabelText('View name'), 'High plan{Enter}');
    await screen.findByText(/^Saved as “High plan”/);
    // The sidebar's link, this time.
    await user.click(within(screen.getByRole('navigation')).getByRole('link', { name: 'Saved views' }));

    await screen.findByRole('link', { name: 'High plan' });
    await user.click(await screen.findByRole('button', { name: /^Rename\s*High plan$/ }));
    const rename = screen.getByRole('form', { name: 'Rename High plan' });
    const field = within(rename).getByLabelText('New name of High plan');
    await user.clear(field);
    await user.type(field, 'Plan of high endpoints{Enter}');
    const renamed = await screen.findByRole('row', { name: /Plan of high endpoints/ });
    expect(within(renamed).getByText('Remediation plan')).toBeTruthy();

    await user.click(within(renamed).getByRole('button', { name: /^Delete\s*Plan of high endpoints$/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm delete Plan of high endpoints' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Plan of high endpoints/ })).toBeNull());
  });
});
