/**
 * The demo data generator: a realistic, deterministic inventory for the demo organization, for
 * `remediation-console seed` and for tests.
 */
export { generateInventory } from './generate.js';
export { cveCatalog, type CatalogCve, type CveMatch } from './cve-catalog.js';
export { referenceMs as demoReferenceMs } from './clock.js';

/** The organization that holds generated data at first start, labelled as such (DESIGN section 1). */
export const demoOrganization = { slug: 'demo', name: 'Demo Organization (generated data)' } as const;
