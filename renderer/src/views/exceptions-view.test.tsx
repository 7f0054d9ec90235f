import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listPageQuery } from '../api/console-queries';
import { exceptionsQuery } from '../api/exception-queries';
import { queryClient } from '../api/query-client';
import { openConsole } from '../test-support/console-page';

const slug = 'exceptions';

/** The CVEs of open findings of the organization, as its findings list gives them. */
async function openCves(): Promise<string[]> {
  const page = await queryClient.fetchQuery(listPageQuery(slug, 'findings', { status: 'open' }, 0, 20));
  return [...new Set(page.data.map((finding) => finding.cve_id))];
}

/** Types `cve` into the new exception's form and submits it; answers the form. */
async function submitNewException(user: UserEvent, cve: string): Promise<HTMLElement> {
  const form = screen.getByRole('form', { name: 'New exception' });
  const field = within(form).getByLabelText('CVE');
  await user.clear(field);
  await user.type(field, cve);
  await user.click(within(form).getByRole('button', { name: 'Make the exception' }));
  return form;
}

afterEach(() => vi.restoreAllMocks());

describe('the exceptions view', () => {
  it('refuses a CVE that is not one beside its field, then makes the exception of a CVE everywhere', async () => {
    const { user } = openConsole(`/orgs/${slug}/exceptions`);
    await user.click(await screen.findByRole('button', { name: 'New exception…' }));
    const form = await submitNewException(user, 'log4shell');
    const field = await within(form).findByRole('textbox', { name: 'CVE', description: 'must be a CVE id such as CVE-2021-44228' });
    expect(field.getAttribute('aria-invalid')).toBe('true');

    const [cve] = await openCves();
    await submitNewException(user, cve!);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New exception' })).toBeNull());
    expect(await screen.findByRole('row', { name: new RegExp(`${cve} everywhere`) })).toBeTruthy();
  });

  it('brings the exception a link names into view, and the view can be left (an effect answers no promise for its cleanup)', async () => {
    // Chromium's scrollIntoView answers a promise: an effect that returned it gave React a "cleanup" that is no function.
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => Promise.resolve() as unknown as void);
    const { user, router } = openConsole(`/orgs/${slug}/exceptions`);
    const cve = (await openCves()).at(-1)!;
    await user.click(await screen.findByRole('button', { name: 'New exception…' }));
    await submitNewException(user, cve);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New exception' })).toBeNull());
    const made = (await queryClient.fetchQuery(exceptionsQuery(slug))).find(({ scope }) => scope.kind === 'cve' && scope.cve_id === cve)!;
    // A finding's page links to its exception so.
    await router.navigate(`/orgs/${slug}/exceptions?selected=${made.id}`);
    const row = await screen.findByRole('row', { current: true });
    expect(row.textContent).toContain(cve);
    // The effect that scrolls runs after the render that marks the row: under load, after the row is found.
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    await user.click(screen.getByRole('link', { name: 'Tags and rules' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/orgs/${slug}/tags`));
    expect(await screen.findByRole('heading', { name: 'Tags and rules', level: 1 })).toBeTruthy();
  });
});
