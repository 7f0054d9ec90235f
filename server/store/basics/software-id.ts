/** The id of a product or version in the console's URLs: base64url of the JSON array of its names (exposure's software, the intelligence's changes). */
export function softwareId(names: (string | null)[]): string {
  return Buffer.from(JSON.stringify(names)).toString('base64url');
}
