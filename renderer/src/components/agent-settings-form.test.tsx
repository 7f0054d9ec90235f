import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

describe('the agent settings form', () => {
  it('marks a refused Team ID beside its field and no other, then saves corrected settings', async () => {
    const { user } = openConsole('/orgs/agent/agent-config');
    const settings = await screen.findByRole('form', { name: 'Agent settings' });
    const serverUrl = await within(settings).findByRole('textbox', { name: 'Server URL' });
    const teamId = within(settings).getByRole('textbox', { name: 'Team ID' });
    await user.type(serverUrl, 'https://agents.component-test.example');
    await user.type(teamId, 'abcde12345x');
    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    await within(settings).findByText(/Correct the fields marked above/);
    expect(teamId.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById('agent-settings-teamId-error')!.textContent!;
    expect(message).not.toBe('');
    expect(within(settings).getByRole('textbox', { name: 'Team ID', description: new RegExp(`^${message.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })).toBe(teamId);
    expect(serverUrl.getAttribute('aria-invalid')).toBeNull();

    await user.clear(teamId);
    await user.type(teamId, 'ABCDE12345');
    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Saved: the files made from now on carry these settings.')).toBeTruthy();
    // The form starts afresh from what was saved.
    const saved = screen.getByRole('form', { name: 'Agent settings' });
    expect(within(saved).getByRole('textbox', { name: 'Team ID' })).toHaveProperty('value', 'ABCDE12345');
    expect(within(saved).getByRole('textbox', { name: 'Team ID' }).getAttribute('aria-invalid')).toBeNull();
  });
});
