import { generateEndpointContext } from '../demo/endpoint-context.js';
import { generateInventory } from '../demo/index.js';
import { type DatasetSize, datasetSizes } from '../../contracts/inventory.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { OrganizationInputError } from './manage-organizations.js';

/** Whether a string names one of the dataset sizes. */
export function isDatasetSize(size: string): size is DatasetSize {
  return Object.hasOwn(datasetSizes, size);
}

/**
 * Roughly how many bytes a generated dataset adds to the database file (about 530 a row at
 * `large`), for the room a store opened to seed it reserves.
 */
export function seedReserveBytes(size: DatasetSize): number {
  const { endpoints, remediationTargets, scopes, findings } = datasetSizes[size];
  return (endpoints + remediationTargets + scopes + findings) * 600;
}

/**
 * Replaces a local organization's inventory with a generated dataset, dated from the day of the
 * store's clock (demo/dated-from.ts): its ages and due dates look the same whenever it is
 * seeded, not ever older, as the fixed reference of the generator would leave them. A replica's
 * data comes from its remote tenant and would be overwritten by the next sync, so it is refused.
 * An organization without endpoint context also gets the dataset's tag rules, tags and
 * criticalities (demo/endpoint-context.ts); one with its own keeps it as it is.
 */
export function seedOrganization(store: Store, organization: Organization, size: DatasetSize, seed: number): void {
  if (organization.kind !== 'local') {
    throw new OrganizationInputError(`"${organization.slug}" is a replica of a remote tenant; only local organizations can be seeded`);
  }
  const inventory = generateInventory(size, seed, { dayMs: store.now() });
  store.replaceInventory(organization.inventoryId, inventory);
  const context = generateEndpointContext(inventory);
  store.endpointContext.seed(organization.rowId, context.rules, context.endpoints);
}
