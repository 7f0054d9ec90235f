import { secretStorages } from '../server/secrets/secret-storages.js';
import { expect, expectAccessible, openConsole, screenshot, test } from './support/console-page.js';

// The headless server seals with its key file and no keychain is involved: a quiet note, no warning.
const headlessNote = /Secrets \(remote API keys, enrollment secrets, signing keys\) are sealed with a key file in the data folder, readable only by your user account\./;

test('the connect form says how the remote API key will be sealed: headless, with the key file', async ({ page }) => {
  await openConsole(page, '/orgs/demo/organizations');
  const form = page.getByRole('form', { name: 'Connect a remote tenant' });
  const note = form.getByRole('note');
  await expect(note).toHaveText(headlessNote);
  await expect(note).not.toContainText('Warning');
  await screenshot(page, 'secret-storage-connect-form');
  await expectAccessible(page);
});

test('the agent configuration view says how the enrollment secret and signing key are sealed', async ({ page }) => {
  await openConsole(page, '/orgs/demo/agent-config');
  await expect(page.getByTestId('secret-storage')).toHaveText(headlessNote);
});

test('a desktop app without a keychain is shown as a warning (its session answer played by the test)', async ({ page }) => {
  await page.route('**/app/session', async (route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...(await answer.json()), secretStorage: secretStorages.plainTextWithoutKeychain } });
  });
  await openConsole(page, '/orgs/demo/organizations');
  const note = page.getByRole('form', { name: 'Connect a remote tenant' }).getByRole('note');
  await expect(note).toHaveText(`Warning: ${secretStorages.plainTextWithoutKeychain.description}`);
  await expect(note).toHaveClass(/notice--warning/);
  await screenshot(page, 'secret-storage-plain-text-warning');
  await expectAccessible(page);
});
