import type { EpssHistory } from '../../../contracts/console/threat-intel.js';
import type { KevAgreement } from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import { epssHistory } from './epss-trend.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { kevAgreement } from './kev-agreement.js';

/** What the console reads of the imported intelligence beside the imports: a CVE's EPSS history, an organization's KEV agreement. */
export class IntelFigures {
  constructor(private readonly db: Database) {}

  /** A CVE's kept EPSS history and its 7- and 30-day change (epss-trend.ts). */
  epssHistory(cveId: string): EpssHistory {
    return epssHistory(this.db, cveId);
  }

  /** Where the organization's `is_kev` and the current catalogs disagree (kev-agreement.ts). */
  kevAgreement(orgRowId: number): KevAgreement {
    return kevAgreement(this.db, inventoryOf(this.db, orgRowId));
  }
}
