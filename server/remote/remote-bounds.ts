/**
 * The bounds this console sets on what a remote tenant sends, before trusting any of it
 * (DESIGN section 5; docs/sync.md, "What a remote may send"; docs/decisions/sync/field-bounds-in-the-resources-schemas-v1.md records why
 * these figures). The bounds of each item's fields are in its input schema (contracts/).
 */

/**
 * The largest `total` a remote's list may announce: ten times the largest dataset the product
 * is built for (1,000,000 findings in `large`, DESIGN section 8).
 */
export const listTotalBound = 10_000_000;

/**
 * The most pages one sync requests, its count checks and retried collections included: the four
 * lists at {@link listTotalBound} items in pages of 50, so that a remote which pages below the
 * 100 asked for still syncs; a sync of `large` takes about 12,800.
 */
export const syncPageBudget = 800_000;

/**
 * The most bytes of one page of a list: 100 items at their fields' bounds (a finding's
 * description and solution at 64 KiB each) weigh about 13 MiB in ASCII; the heaviest page of
 * `large` weighs 81 KiB (docs/decisions/sync/remote-bodies-read-as-streams-with-a-cap.md).
 */
export const pageBodyMaxBytes = 32 << 20;

/**
 * The most bytes of the pages a sync holds at once, in flight and arrived: four pages at
 * {@link pageBodyMaxBytes}, as when a sync had four pages in flight. With more in flight, each
 * page's cap is this share of it (8 MiB at 16 pages, a hundred times `large`'s heaviest page of
 * 1,000), until a page of the specification's size needs more (server/sync/page-window.ts).
 */
export const pagesHeldMaxBytes = 4 * pageBodyMaxBytes;

/** The most bytes of the answer that checks a new address and key: one page of one scope. */
export const checkBodyMaxBytes = 1 << 20;

/** The most bytes of an agent configuration file passed through from a replica's remote (a signed file weighs a few KiB). */
export const agentConfigMaxBytes = 8 << 20;
