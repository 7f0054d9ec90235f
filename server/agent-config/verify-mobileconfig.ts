/** Verification of a signed .mobileconfig: the CMS signature, then the profile it carries. */
import { parse as parsePlist } from 'plist';
import type { AgentProfile } from '../../contracts/enums.js';
import { verifyCms } from './cms-verifier.js';
import { payloadTypes, profileRecordKeys } from './configuration-profile.js';
import { AgentConfigVerificationError } from './errors.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

const label = 'The profile';

/**
 * Verifies a .mobileconfig's signature (against `expectedCertificate` when given, else the
 * embedded signer) and reads the record the profile carries.
 */
export async function verifyMobileconfig(bytes: Uint8Array, expectedCertificate: Buffer | undefined): Promise<AgentConfigReport> {
  const { content, signer } = await verifyCms(bytes, { label, ...(expectedCertificate ? { expectedCertificate } : {}) });
  const profile = readProfile(content);
  const fail = (why: string) => new AgentConfigVerificationError(`${label} is not a Remediation Console agent profile: ${why}`);
  if (profile.PayloadType !== payloadTypes.configuration) throw fail('its PayloadType is not Configuration');
  const payloads = profile.PayloadContent;
  if (!Array.isArray(payloads) || !payloads.every(isDict)) throw fail('it has no PayloadContent array of payloads');
  const record = {
    organizationId: profile[profileRecordKeys.organizationId],
    configId: profile[profileRecordKeys.configId],
    generatedAt: profile[profileRecordKeys.generatedAt],
    profile: profile[profileRecordKeys.profile],
  };
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== 'string' || !value) throw fail(`it does not record its ${key}`);
  }
  if (record.profile !== 'mdm-full' && record.profile !== 'mdm-permissions') throw fail(`unknown profile "${String(record.profile)}"`);
  const settings = payloads.find((payload) => payload.PayloadType === payloadTypes.agentSettings);
  if (settings && (settings.OrganizationID !== record.organizationId || settings.ConfigID !== record.configId)) {
    throw fail('its settings payload names another organization or configuration than the profile');
  }
  return {
    kind: 'mobileconfig',
    platform: 'macos',
    profile: record.profile as AgentProfile,
    organizationId: record.organizationId as string,
    configId: record.configId as string,
    generatedAt: record.generatedAt as string,
    payloads: payloads.map((payload) => String(payload.PayloadType)),
    files: [],
    signer: describeSigner(signer),
  };
}

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

function readProfile(content: Buffer): Dict {
  let parsed: unknown;
  try {
    parsed = parsePlist(content.toString('utf8'));
  } catch (error) {
    throw new AgentConfigVerificationError(`${label}'s signed content is not an XML property list: ${(error as Error).message}`);
  }
  if (!isDict(parsed)) throw new AgentConfigVerificationError(`${label}'s property list is not a dictionary`);
  return parsed;
}
