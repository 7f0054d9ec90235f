/**
 * The typed failures of agent configuration generation and verification. The HTTP route and the
 * CLI tell them apart by class: an input error is the caller's mistake, a signing error a broken
 * organization key, a verification error a file that must not be trusted.
 */

/** Why generation input was refused. */
export type AgentConfigInputProblem =
  | 'invalid-platform'
  | 'invalid-profile'
  | 'invalid-combination'
  | 'invalid-input'
  /** A setting the file needs is not set (an MDM profile without a Team ID). */
  | 'missing-setting';

/** Generation was asked for something it cannot produce; the message names what and why. */
export class AgentConfigInputError extends Error {
  override readonly name = 'AgentConfigInputError';

  constructor(
    readonly problem: AgentConfigInputProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The organization's signing key or certificate cannot be used (unparseable, mismatched, expired). */
export class AgentConfigSigningError extends Error {
  override readonly name = 'AgentConfigSigningError';
}

/**
 * A configuration file failed verification: unparseable, a signature or digest that does not
 * match, or a signer other than the expected certificate. The message says which, for a person.
 */
export class AgentConfigVerificationError extends Error {
  override readonly name = 'AgentConfigVerificationError';
}
