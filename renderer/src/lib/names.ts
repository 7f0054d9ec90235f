import type { RemediationTarget } from '../../../contracts/remediation-target';

/**
 * A vendor and its product as people name them: the vendor is left out when the product already
 * starts with it ("Microsoft Edge", "curl", not "Microsoft Microsoft Edge", "curl curl"). Empty
 * when neither is known.
 */
export function vendorAndProduct(vendor: string | null, product: string | null): string {
  const repeated = vendor && product && product.toLowerCase().startsWith(vendor.toLowerCase());
  return [repeated ? null : vendor, product].filter(Boolean).join(' ');
}

/** What a person calls a remediation target: vendor, product (or package, or its type) and version, as {@link vendorAndProduct} names them. */
export function targetName(target: Pick<RemediationTarget, 'vendor' | 'product' | 'package_name' | 'target_type' | 'version'>): string {
  const product = target.product ?? target.package_name ?? target.target_type.replace('_', ' ');
  return [vendorAndProduct(target.vendor, product), target.version].filter(Boolean).join(' ');
}
