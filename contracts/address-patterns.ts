/**
 * Regular expressions of addresses, written once for the zod contracts that check them and the
 * OpenAPI documents that show them (`pattern`), so that a tool generating values from a
 * document makes ones the server takes. Each is plain ASCII syntax, the same in JavaScript and
 * in a JSON Schema validator.
 */

const octet = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const ipv4 = `${octet}(?:\\.${octet}){3}`;
const hex = '[0-9A-Fa-f]{1,4}';
// Eight groups, or fewer around one `::` (RFC 4291, section 2.2), without an embedded IPv4.
const ipv6 = [
  `(?:${hex}:){7}${hex}`,
  `(?:${hex}:){1,7}:`,
  `(?:${hex}:){1,6}:${hex}`,
  `(?:${hex}:){1,5}(?::${hex}){1,2}`,
  `(?:${hex}:){1,4}(?::${hex}){1,3}`,
  `(?:${hex}:){1,3}(?::${hex}){1,4}`,
  `(?:${hex}:){1,2}(?::${hex}){1,5}`,
  `${hex}:(?::${hex}){1,6}`,
  `:(?:(?::${hex}){1,7}|:)`,
]
  .map((form) => `(?:${form})`)
  .join('|');

/** An IPv4 or IPv6 CIDR range, or a bare address (its /32 or /128). */
export const cidrPattern = new RegExp(`^(?:${ipv4}(?:/(?:3[0-2]|[12]?[0-9]))?|(?:${ipv6})(?:/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))?)$`);

// A host as a URL names it: a name whose last label starts with a letter (one that ends in a
// number is read as an IPv4 address), an IPv4 address, or an IPv6 address in brackets.
const hostName = '(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*\\.?';
const port = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
const baseUrl = `[Hh][Tt][Tt][Pp][Ss]?://(?:${hostName}|${ipv4}|\\[(?:${ipv6})\\])${port}(?:/[^\\s?#\\u0000-\\u001f\\u007f-\\u009f]*)?`;

/**
 * An http or https base URL: a host, an optional port and path; no credentials, query or
 * fragment. White space around it is allowed (it is trimmed). A label of the punycode form
 * (`xn--…`) passes the pattern whether or not it decodes; the server's URL parser refuses one that
 * does not, with a 400 naming the field.
 */
export const baseUrlPattern = new RegExp(`^\\s*${baseUrl}\\s*$`);

/** {@link baseUrlPattern}, or only white space (a setting that clears). */
export const baseUrlOrBlankPattern = new RegExp(`^\\s*(?:${baseUrl})?\\s*$`);
