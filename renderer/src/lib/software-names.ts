import { vendorAndProduct } from './names';

/** A product as people name it: vendor and product (the vendor once), or what there is of them. */
export function productLabel(item: { vendor: string | null; product: string | null }): string {
  return vendorAndProduct(item.vendor, item.product) || 'Unnamed product';
}

/** A version, or says there is none: a remediation target may name no version. */
export function versionLabel(version: string | null): string {
  return version || 'No version';
}
