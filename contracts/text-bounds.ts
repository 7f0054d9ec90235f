/**
 * The most characters (UTF-16 code units, as JavaScript counts a string's length) and items a
 * field of the specification's resources may hold: what a remote tenant sends is checked
 * against them before it is stored (an item past one is skipped and reported, never stored
 * half), so the /v1 API never answers past them either (docs/sync.md, "What a remote may send";
 * docs/decisions/sync/field-bounds-in-the-resources-schemas-v1.md records why these figures).
 */
export const textBounds = {
  /** A DNS name: 253 characters (RFC 1035). */
  hostname: 253,
  /** An IP or MAC address as text (an IPv6 address with a zone is under 64). */
  address: 64,
  /** An ISO 8601 date-time (the longest with nanoseconds and an offset is 35). */
  dateTime: 64,
  /** A CVE identifier: CVE-YYYY- and up to 23 digits. */
  cveId: 32,
  /** Names, versions, vendors, products, packages, sources, architectures, tags, endpoint ids of a scope. */
  short: 256,
  /** A scope's name, a finding's title. */
  title: 1024,
  /** An install path, a CPE pattern. */
  path: 4096,
  /** Descriptions and solutions: 64 KiB. */
  long: 65_536,
} as const;

/** The most items a list field may hold. */
export const listBounds = {
  /** A remediation target's associated CVEs. */
  associatedCves: 10_000,
  /** A scope's endpoint ids. */
  endpointIds: 10_000,
  /** A scope's vendors, products, CPE patterns and tags, each. */
  filterValues: 1_000,
  /** A scope's lists of fixed values (subject types, OS families, finding types): a value may come twice. */
  choices: 16,
} as const;
