/** A product as people name it: vendor and product, or what there is of them. */
export function productLabel(item: { vendor: string | null; product: string | null }): string {
  return [item.vendor, item.product].filter(Boolean).join(' ') || 'Unnamed product';
}

/** A version, or says there is none: a remediation target may name no version. */
export function versionLabel(version: string | null): string {
  return version || 'No version';
}
