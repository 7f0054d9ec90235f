import { agentConfigQuerySchema, checkPlatformProfile } from '../../contracts/agent-config.js';
import { produceAgentConfig } from '../organizations/produce-agent-config.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { HttpError } from './http-error.js';
import { parseUrlQuery } from './query-parameters.js';

/** What an agent configuration download needs. */
export interface AgentConfigContext {
  sealer: Sealer;
  log: (message: string, error: unknown) => void;
}

/** Content-Disposition for a generated name: quoted, with nothing that could break out of the quotes. */
function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
}

/**
 * The signed agent configuration file asked for by a request URL's query (specification 4.9,
 * DESIGN section 6), as `GET /v1/agent/config` and the console's download answer it: 400 for
 * the query or an MDM profile on another platform, 409 without an enrollment secret or an agent
 * setting the file needs (the server URL; the Team ID for an MDM profile), 500 when signing
 * fails, 502 when a replica's remote gives no file, in our words (thrown as HttpError).
 */
export async function agentConfigDownload(
  store: Store,
  context: AgentConfigContext,
  organization: Organization,
  url: string,
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const query = parseUrlQuery(url, agentConfigQuerySchema);
  const invalidCombination = checkPlatformProfile(query.platform, query.profile);
  if (invalidCombination) throw new HttpError(400, `Invalid platform/profile combination: ${invalidCombination}`);
  const outcome = await produceAgentConfig(store, context.sealer, organization, query, { log: context.log });
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.message);
  return { body: outcome.bytes, headers: { 'Content-Type': outcome.contentType, 'Content-Disposition': attachment(outcome.filename) } };
}
