/** The filters of a list (with its `sort`) as the URL and the API both spell them: name to value. */
export type ListFilters = Record<string, string>;

/** Rows a list page holds: the API's maximum, so that scrolling fetches as few pages as it can. */
export const pageSize = 100;
