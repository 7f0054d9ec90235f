import { datasetSizes, type DatasetSize, type Inventory } from '../../contracts/inventory.js';
import { datedFrom } from './dated-from.js';
import { generateEndpoints } from './endpoints.js';
import { generateFindings } from './findings.js';
import { Random } from './random.js';
import { generateRemediationTargets } from './remediation-targets.js';
import { generateScopes } from './scopes.js';
import { VulnerabilityIndex } from './vulnerabilities.js';

/**
 * Synthetic CVE-2099 vulnerabilities invented per catalogued product: none in the demo dataset,
 * which shows only real CVEs, some in the bigger ones so that findings spread over more CVEs.
 */
const syntheticPerProduct: Record<DatasetSize, number> = { demo: 0, medium: 4, large: 6 };

/**
 * Generates an organization's whole inventory: exactly the counts of `datasetSizes[size]`, the same
 * for the same seed (byte for byte once serialized), with timestamps before 2026-06-01, or, with
 * `options.dayMs`, moved to be before that day (see {@link datedFrom}: what seedOrganization
 * stores, the first start's demo included, is dated from the day it is made).
 *
 * The records share strings and arrays where they are equal (a CVE's texts, a product version's
 * associated_cves): treat them as read-only.
 *
 * @param size demo, medium or large
 * @param seed any safe integer
 */
export function generateInventory(size: DatasetSize, seed: number, options: { dayMs?: number } = {}): Inventory {
  if (!Object.hasOwn(datasetSizes, size)) throw new RangeError(`unknown dataset size "${String(size)}"`);
  const counts = datasetSizes[size];
  // One stream per part, so that changing how one part is generated leaves the others as they were.
  const index = new VulnerabilityIndex(syntheticPerProduct[size], new Random(seed, 'synthetic-cves'));
  const endpoints = generateEndpoints(counts.endpoints, new Random(seed, 'endpoints'));
  const targets = generateRemediationTargets(endpoints, counts.remediationTargets, index, new Random(seed, 'remediation-targets'));
  const findings = generateFindings(endpoints, targets, counts.findings, new Random(seed, 'findings'), new Random(seed, 'finding-times'));
  const scopes = generateScopes(endpoints, counts.scopes, new Random(seed, 'scopes'));
  const inventory = {
    endpoints: endpoints.map((endpoint) => endpoint.record),
    remediationTargets: targets.targets,
    scopes,
    findings,
  };
  return options.dayMs === undefined ? inventory : datedFrom(inventory, options.dayMs);
}
