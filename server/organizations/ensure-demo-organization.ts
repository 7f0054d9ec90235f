import { demoOrganization } from '../demo/index.js';
import { demoEpssFile, demoKevCatalog } from '../demo/threat-intel.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Store } from '../store/store.js';
import { setDemoAgentSettings } from './manage-agent-settings.js';
import { createLocalOrganization } from './manage-organizations.js';
import { seedOrganization } from './seed-organization.js';

/** The seed of the demo organization's data, so that every first start shows the same data. */
export const demoSeed = 1;

/**
 * At first start of an empty data directory, creates the demo organization with the `demo`
 * dataset, dated from the day it is created (seedOrganization: its findings' ages and due
 * dates look to the user as they would on the generator's reference day), the demo's agent
 * settings (so that its agent configuration files download at once), the demo's generated EPSS
 * file and KEV catalog (demo/threat-intel.ts), and an API key.
 * Returns that key, the only time it is shown, or undefined when the store had organizations
 * already.
 */
export async function ensureDemoOrganization(store: Store, sealer: Sealer): Promise<string | undefined> {
  if (store.organizations.list().length > 0) return undefined;
  const organization = await createLocalOrganization(store, sealer, { ...demoOrganization, enrollmentSecret: true, isDemo: true });
  setDemoAgentSettings(store, organization);
  seedOrganization(store, organization, 'demo', demoSeed);
  // Generated EPSS figures and KEV entries for the demo's CVEs, dated from today, marked "demo": the console shows a CVE scored, not scored, and a source with no file.
  for (const file of [demoEpssFile(store.now()), demoKevCatalog(store.now())]) await store.intel.importFile(new TextEncoder().encode(file));
  return store.apiKeys.create(organization.rowId, 'created at first start').key;
}
