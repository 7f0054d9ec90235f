import { exceptionsFileFormat } from '../../../contracts/console/exception-basics.js';
import type { CreateExceptionInput, ExceptionsFile, UpdateExceptionBody } from '../../../contracts/console/exceptions.js';

const dayMs = 86_400_000;
/** How far ahead the examples' expiry is: well inside the year an expiry may be ahead of now. */
const exampleLifetimeDays = 90;
/** The id of the imported example, which the edit and revoke examples name (the document's example UUID). */
const exampleId = '3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10';

/**
 * The request examples of the exception operations in the /app document, dated from the UTC
 * day `now` falls in: an expiry must be after the moment of the request and at most a year
 * ahead of it, which no fixed date stays. The document is rebuilt each day it is served
 * (app-document.ts), so its examples are accepted as they stand on the day they are read.
 */
export function exceptionExamples(now: number) {
  const day = Math.floor(now / dayMs) * dayMs;
  const expiresAt = new Date(day + exampleLifetimeDays * dayMs).toISOString();
  const madeAt = new Date(day).toISOString();
  const create: CreateExceptionInput = {
    scope: { kind: 'cve', cve_id: 'CVE-2021-44228' },
    reason: 'compensating_control',
    note: 'Outbound LDAP is blocked at the firewall until the upgrade.',
    expires_at: expiresAt,
  };
  const update: UpdateExceptionBody = { reason: 'planned_remediation', expires_at: expiresAt };
  const file: ExceptionsFile = {
    ...exceptionsFileFormat,
    exported_at: madeAt,
    organization: { slug: 'demo', name: 'Demo organization' },
    exceptions: [
      {
        id: exampleId,
        scope: { kind: 'cve_on_endpoints', cve_id: 'CVE-2023-4863', endpoint_ids: [exampleId] },
        reason: 'risk_accepted',
        note: 'Kiosk image, rebuilt next quarter.',
        expires_at: expiresAt,
        created_by: 'analyst',
        created_at: madeAt,
        updated_by: null,
        updated_at: null,
        revoked_by: null,
        revoked_at: null,
      },
    ],
  };
  return { create, update, file };
}
