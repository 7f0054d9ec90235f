/** Seals secrets at rest: remote API keys, enrollment secrets, signing keys (DESIGN section 4). */
export interface Sealer {
  /** A short name of how secrets are sealed, shown to the user. */
  readonly kind: string;
  seal(plain: Buffer): Buffer;
  unseal(sealed: Buffer): Buffer;
}
