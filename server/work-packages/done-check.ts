import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';

/**
 * The check after a sync (issue 39, item 4), called where a sync ends (sync-organization.ts):
 * each work package whose ticket is done and whose findings are still open on some endpoints is
 * flagged with them, and the flags that are new go to the change feed. Answers the steps flagged.
 */
export function checkDoneAfterSync(store: Store, organization: Organization): Promise<number> {
  return store.workPackages.checkDone(organization.rowId);
}
