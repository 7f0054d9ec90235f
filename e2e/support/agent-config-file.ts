import fs from 'node:fs';
import { type Download, type Page, expect } from '@playwright/test';
import { parse as parsePlist } from 'plist';

// Reading the agent configuration files the console downloads, as an admin's tools would: the
// XML plist a signed .mobileconfig carries attached inside its DER envelope, and its payloads.

/** Clicks Download and answers the bytes of the file the browser saved. */
export async function download(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file: Download = await downloading;
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

/** A payload of a configuration profile: its type and its keys. */
export type Payload = { PayloadType: string } & Record<string, unknown>;

/** The payloads of the XML plist a signed .mobileconfig carries attached inside its DER CMS envelope. */
export function payloadsOf(bytes: Buffer): Payload[] {
  const text = bytes.toString('latin1');
  const start = text.indexOf('<?xml');
  const end = text.indexOf('</plist>') + '</plist>'.length;
  expect(start, 'an XML plist inside the signed profile').toBeGreaterThanOrEqual(0);
  return (parsePlist(bytes.subarray(start, end).toString('utf8')) as unknown as { PayloadContent: Payload[] }).PayloadContent;
}

/** The agent's managed preferences in a profile's settings payload (absent from mdm-permissions). */
export function managedSettings(payloads: Payload[]): Record<string, unknown> | undefined {
  const payload = payloads.find((p) => p.PayloadType === 'com.apple.ManagedClient.preferences');
  const domains = payload?.PayloadContent as Record<string, { Forced: { mcx_preference_settings: Record<string, unknown> }[] }> | undefined;
  return domains?.['com.remediationconsole.agent']?.Forced[0]?.mcx_preference_settings;
}

/** The code requirement of the full disk access grant: where the Team ID is pinned. */
export function codeRequirement(payloads: Payload[]): string | undefined {
  const payload = payloads.find((p) => p.PayloadType === 'com.apple.TCC.configuration-profile-policy');
  return (payload?.Services as { SystemPolicyAllFiles: { CodeRequirement: string }[] } | undefined)?.SystemPolicyAllFiles[0]?.CodeRequirement;
}
