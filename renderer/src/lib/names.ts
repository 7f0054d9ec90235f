import type { RemediationTarget } from '../../../contracts/remediation-target';

/**
 * What a person calls a remediation target: vendor, product (or package, or its type) and
 * version; the vendor is left out when the product already starts with it ("Microsoft Edge",
 * not "Microsoft Microsoft Edge").
 */
export function targetName(target: Pick<RemediationTarget, 'vendor' | 'product' | 'package_name' | 'target_type' | 'version'>): string {
  const product = target.product ?? target.package_name ?? target.target_type.replace('_', ' ');
  const vendor = target.vendor && !product.toLowerCase().startsWith(target.vendor.toLowerCase()) ? target.vendor : null;
  return [vendor, product, target.version].filter(Boolean).join(' ');
}
