import type { TargetUpdate } from '../../../contracts/console/software.js';
import type { VersionToUpdateTo, VersionToUpdateToSummary } from '../../../contracts/console/version-to-update-to.js';
import { targetStatuses } from '../../../contracts/enums.js';
import { counted } from '../../../contracts/figure-text.js';
import type { Database } from '../engine/database.js';
import type { ExposureFigures } from './exposure-figures.js';
import { softwareId } from '../basics/software-id.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { compareVersions, parseVersion } from './version-order.js';

const resolved = targetStatuses.indexOf('resolved');

/** "3 open critical findings and 2 open KEV findings", naming only the kinds there are. */
function urgentFindings(critical: number, kev: number): string {
  const parts = [critical ? counted(critical, 'open critical finding') : '', kev ? counted(kev, 'open KEV finding') : ''];
  return parts.filter(Boolean).join(' and ');
}

/**
 * The version to update a product to: the newest of its versions seen in the fleet (those with a
 * remediation target that is not resolved), in the order of version-order.ts, leaving out those
 * that do not read as versions; clean when it carries no open critical or KEV finding (as the
 * software view counts them: exceptions in force leave theirs out).
 */
export function versionToUpdateTo(figures: ExposureFigures, product: number): VersionToUpdateTo {
  let newest: { index: number; version: string; installs: number } | undefined;
  let unreadable = 0;
  for (const index of figures.products[product]!.versions) {
    const { version, targets } = figures.versions[index]!;
    let installs = 0;
    for (const target of targets) if (figures.targets.status[target] !== resolved) installs++;
    if (installs === 0) continue;
    if (version === null || parseVersion(version) === undefined) unreadable++;
    else if (newest === undefined || compareVersions(version, newest.version) > 0) newest = { index, version, installs };
  }
  if (newest === undefined) {
    return {
      verdict: 'no_version',
      version_id: null,
      version: null,
      installs: 0,
      endpoints: 0,
      open_findings: 0,
      open_critical: 0,
      open_kev_findings: 0,
      unreadable_versions: unreadable,
      sentence: unreadable
        ? `No version seen in the fleet reads as a version (${counted(unreadable, 'version')}, none a number): there is no newest one to update to.`
        : 'No version of it is installed in the fleet: every remediation target of it is resolved.',
    };
  }
  const { id, endpoints } = figures.versions[newest.index]!;
  const exposure = figures.versionExposure.exposure(newest.index);
  const { critical } = exposure.open_findings;
  const kev = exposure.open_kev_findings;
  const runBy = `run by ${counted(endpoints, 'endpoint')}`;
  const clean = critical === 0 && kev === 0;
  return {
    verdict: clean ? 'update_to' : 'none_clean',
    version_id: id,
    version: newest.version,
    installs: newest.installs,
    endpoints,
    open_findings: Object.values(exposure.open_findings).reduce((sum, count) => sum + count, 0),
    open_critical: critical,
    open_kev_findings: kev,
    unreadable_versions: unreadable,
    sentence: clean
      ? `Update to ${newest.version} (${runBy}, no open critical or KEV finding).`
      : `No version seen in the fleet is clean: the newest, ${newest.version} (${runBy}), has ${urgentFindings(critical, kev)}.`,
  };
}

/** The version to update a product to as the software list gives it: {@link versionToUpdateTo} without its figures. */
export function versionToUpdateToSummary(figures: ExposureFigures, product: number): VersionToUpdateToSummary {
  const { verdict, version_id, version, sentence } = versionToUpdateTo(figures, product);
  return { verdict, version_id, version, sentence };
}

/**
 * A remediation target's product and the version to update it to; undefined when the
 * organization has no target with this id. Read at the figures' version of the data: call it
 * with nothing awaited since the figures were taken.
 */
export function targetUpdate(db: Database, figures: ExposureFigures, orgRowId: number, targetId: string): TargetUpdate | undefined {
  const row = db.get<{ vendor: string | null; product: string | null; version: string | null }>(
    'SELECT vendor, product, version FROM remediation_targets WHERE org_id = ? AND id = ?',
    [inventoryOf(db, orgRowId), targetId],
  );
  if (row === undefined) return undefined;
  const productId = softwareId([row.vendor, row.product]);
  const product = figures.productById.get(productId);
  if (product === undefined) return undefined;
  const update = versionToUpdateTo(figures, product);
  return {
    product_id: productId,
    vendor: row.vendor,
    product: row.product,
    version: row.version,
    runs_newest: update.version !== null && row.version === update.version,
    update_to: update,
  };
}
