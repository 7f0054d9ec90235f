import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

describe('the threat intelligence view', () => {
  it("says why a CVE's EPSS change is not computed before any file, from the CVE of the URL", async () => {
    openConsole('/orgs/lists/threat-intelligence?cve=CVE-2021-44228');
    expect(await screen.findByText('7-day change: not computed: no EPSS file is imported')).toBeTruthy();
    expect(await screen.findByText('30-day change: not computed: no EPSS file is imported')).toBeTruthy();
    expect(await screen.findByText('No file is imported yet: every EPSS and KEV figure reads “no file”.')).toBeTruthy();
    expect(await screen.findByText('No KEV catalog is imported: import one to compare it with the remote’s flag.')).toBeTruthy();
  });

  it('refuses a threshold past 1 beside its field, saving nothing, then saves a corrected one', async () => {
    const { user } = openConsole('/orgs/lists/threat-intelligence');
    const form = await screen.findByRole('form', { name: 'EPSS settings' });
    const threshold = within(form).getByLabelText('EPSS threshold (0.0001 to 1)');
    await user.clear(threshold);
    await user.type(threshold, '1.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(threshold.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByRole('alert').textContent).toBe('Correct the fields marked above: nothing was saved.');
    await user.clear(threshold);
    await user.type(threshold, '0.3');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('form', { name: 'EPSS settings' }).textContent).toContain('Saved.'));
    expect((within(screen.getByRole('form', { name: 'EPSS settings' })).getByLabelText('EPSS threshold (0.0001 to 1)') as HTMLInputElement).value).toBe('0.3');
  });
});
