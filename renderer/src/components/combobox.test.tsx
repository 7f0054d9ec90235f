import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConsole } from '../test-support/console-page';

/** A suggestion's name, without the detail that tells it apart. */
const label = (option: HTMLElement) => option.querySelector('.combobox__label')!.textContent!;

describe('the combobox', () => {
  it('suggests endpoints as one types, moves through them with the arrows and chooses one with Enter, its id in the URL', async () => {
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings');
    const field = await screen.findByRole('combobox', { name: 'Endpoint' });
    await user.click(field);
    const suggestions = await screen.findByRole('listbox', { name: 'Endpoint suggestions' });
    const options = await within(suggestions).findAllByRole('option');
    expect(options.length).toBeGreaterThan(2);
    expect(field.getAttribute('aria-expanded')).toBe('true');

    // Typing the start of the second one's name narrows the suggestions to the names that match.
    const wanted = label(options[1]!);
    await user.type(field, wanted);
    const matching = await waitFor(() => {
      const shown = within(suggestions).getAllByRole('option');
      expect(shown.map(label)).toContain(wanted);
      expect(shown.every((option) => option.textContent!.toLowerCase().includes(wanted.toLowerCase()))).toBe(true);
      return shown;
    });

    await user.keyboard('{ArrowDown}');
    const active = matching[0]!;
    expect(active.getAttribute('aria-selected')).toBe('true');
    expect(field.getAttribute('aria-activedescendant')).toBe(active.id);
    // ↑ from the first suggestion goes back to the field, and ↓ to the first again.
    await user.keyboard('{ArrowUp}');
    expect(field.getAttribute('aria-activedescendant')).toBeNull();
    await user.keyboard('{ArrowDown}{Enter}');
    const chosen = label(active);
    await waitFor(() => expect(field).toHaveProperty('value', chosen));
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(search().get('endpointId')).toMatch(/^[0-9a-f-]{36}$/);

    await user.click(screen.getByRole('button', { name: 'Clear endpoint' }));
    expect(search().has('endpointId')).toBe(false);
    await waitFor(() => expect(field).toHaveProperty('value', ''));
  });

  it('closes its suggestions on Escape, then gives up the typed text on a second one', async () => {
    const { user, search } = openConsole('/orgs/lists/vulnerability-findings');
    const field = await screen.findByRole('combobox', { name: 'Endpoint' });
    await user.type(field, 'zz-no-such-host');
    // Said under the field, and to screen readers.
    expect(await screen.findAllByText('No endpoint matches “zz-no-such-host”.')).toHaveLength(2);
    await user.keyboard('{Escape}');
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(field).toHaveProperty('value', 'zz-no-such-host');
    await user.keyboard('{Escape}');
    expect(field).toHaveProperty('value', '');
    expect(search().has('endpointId')).toBe(false);
  });
});
