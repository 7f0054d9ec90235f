import { type ChangeVersions, derivedValue } from '../../store/derived/change-kinds.js';
import { DerivedCache } from '../../store/derived/derived-cache.js';

/** About 800 pages of a hundred findings: small beside the database that sql.js holds in memory. */
const answerCacheBytes = 64 * 2 ** 20;
/** The serialized v1 answers: read from the inventory. */
const v1Answers = derivedValue('v1 answers', ['inventory']);

/**
 * The serialized answers of the v1 lists and gets, kept while the data stays the same. Bound:
 * `maxBytes` of bodies and keys, least recently used dropped first. An answer is kept only when
 * asked a second time (among the last 50,000 asked once): a client reading every page once (a
 * sync, a scan) then does not push out the pages that clients poll.
 */
export function answerCache(versions: ChangeVersions, maxBytes = answerCacheBytes): DerivedCache<Buffer> {
  return new DerivedCache(versions, v1Answers, {
    bound: { weight: maxBytes, weigh: (body, key) => body.length + key.length },
    keepFromSecondRequest: { remembered: 50_000 },
  });
}
