/**
 * Signed agent configuration files (DESIGN section 6): generation, verification, signing identities.
 * What a file holds (`agentConfigContents`) is imported from file-contents.ts directly: this index
 * loads the signing modules.
 */
export { AgentConfigInputError, AgentConfigSigningError, AgentConfigVerificationError } from './errors.js';
export type { AgentConfigInputProblem } from './errors.js';
export { generateAgentConfig } from './generate.js';
export type { GenerateAgentConfigInput, GeneratedAgentConfig } from './generate.js';
export { certificateFingerprint, createSigningIdentity } from './signing-identity.js';
export type { SigningIdentity, SigningIdentityOrganization } from './signing-identity.js';
export { extractProfile, verifyAgentConfig } from './verify.js';
export type { AgentConfigReport, VerifyAgentConfigOptions } from './verify.js';
export { signCms } from './cms-signer.js';
export { verifyDetachedSignature } from './verify-detached.js';
export type { DetachedSignatureReport } from './verify-detached.js';
