import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAgentConfig } from './generate.js';
import { createSigningIdentity, type SigningIdentity } from './signing-identity.js';
import { extractProfile } from './verify.js';
import { tempFiles } from '../test/support/admin-tools.js';
import {
  type AppleSchemas,
  appleSchemasMissing,
  checkProfileAgainstSchemas,
  loadAppleSchemas,
  readTaggedPlist,
  type TaggedValue,
} from '../test/support/apple-profile-schema.js';

const organization = { id: '0b6c7d8e-9f10-4a2b-8c3d-4e5f60718293', slug: 'fleet', name: 'Fleet Ops' };
const settings = { serverUrl: 'https://agents.example.com', teamId: 'Q7M3K9D2XP', bundleId: 'com.example.fleet-agent' };
const missing = appleSchemasMissing();
if (missing) console.warn(`apple-schemas.test.ts skipped: ${missing}`);

describe.skipIf(missing !== undefined)(`the .mobileconfig files against Apple's profile schemas${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const files = tempFiles();
  let signer: SigningIdentity;
  let schemas: AppleSchemas;
  const profiles = new Map<string, TaggedValue>();

  beforeAll(async () => {
    schemas = loadAppleSchemas();
    signer = await createSigningIdentity(organization);
    for (const profile of ['mdm-full', 'mdm-permissions'] as const) {
      const generated = await generateAgentConfig({ platform: 'macos', profile, organization, enrollmentSecret: 'enroll-secret', signer, ...settings });
      profiles.set(profile, readTaggedPlist(files.write(`${profile}.plist`, extractProfile(generated.bytes))));
    }
  });
  afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

  describe.each(['mdm-full', 'mdm-permissions'])('%s', (profile) => {
    it('conforms: every key known to the schemas, of their type and in their range, required keys present, UUIDs and identifiers unique', () => {
      expect(checkProfileAgainstSchemas(profiles.get(profile)!, schemas)).toEqual([]);
    });

    it('has payloads of the types the schemas define, the agent settings as managed preferences in mdm-full only', () => {
      const types = payloads(profiles.get(profile)!.v as Dict).map((payload) => payload.PayloadType?.v);
      const permissions = ['com.apple.TCC.configuration-profile-policy', 'com.apple.notificationsettings', 'com.apple.servicemanagement'];
      expect(types).toEqual(profile === 'mdm-full' ? ['com.apple.ManagedClient.preferences', ...permissions] : permissions);
    });
  });

  describe('the check is strict: on a changed mdm-full profile it finds', () => {
    it.each<[string, (profile: Dict) => void, string]>([
      [
        'the top-level keys of our own that the profile used to carry',
        (profile) => {
          profile.RemediationConsoleOrganizationID = { t: 'string', v: organization.id };
          profile.RemediationConsoleProfile = { t: 'string', v: 'mdm-full' };
        },
        'profile: unknown key RemediationConsoleOrganizationID',
      ],
      [
        'the custom payload type the settings used to have',
        (profile) => {
          payloads(profile)[0]!.PayloadType = { t: 'string', v: settings.bundleId };
        },
        `profile.PayloadContent[0]: no Apple schema defines the PayloadType "${settings.bundleId}"`,
      ],
      [
        'a wrong type',
        (profile) => {
          profile.PayloadVersion = { t: 'string', v: '1' };
        },
        'profile.PayloadVersion: is a <string>, the schema says <integer>',
      ],
      [
        'a value outside the rangelist',
        (profile) => {
          entry(payloads(profile)[2]!, 'NotificationSettings').AlertType = { t: 'integer', v: 3 };
        },
        'profile.PayloadContent[2] (com.apple.notificationsettings).NotificationSettings[0].AlertType: 3 is not one of [0,1,2]',
      ],
      [
        'a missing required key',
        (profile) => {
          delete entry(payloads(profile)[1]!, 'Services', 'SystemPolicyAllFiles').CodeRequirement;
        },
        'profile.PayloadContent[1] (com.apple.TCC.configuration-profile-policy).Services.SystemPolicyAllFiles[0]: lacks the required key CodeRequirement',
      ],
      [
        'a key macOS does not support',
        (profile) => {
          entry(payloads(profile)[2]!, 'NotificationSettings').ShowInCarPlay = { t: 'boolean', v: true };
        },
        'profile.PayloadContent[2] (com.apple.notificationsettings).NotificationSettings[0].ShowInCarPlay: not supported on macOS',
      ],
      [
        'an unknown key in a payload',
        (profile) => {
          payloads(profile)[3]!.TeamID = { t: 'string', v: settings.teamId };
        },
        'profile.PayloadContent[3] (com.apple.servicemanagement): unknown key TeamID',
      ],
      [
        'a PayloadUUID used twice',
        (profile) => {
          payloads(profile)[1]!.PayloadUUID = profile.PayloadUUID!;
        },
        'is used twice in the profile',
      ],
      [
        'a PayloadIdentifier used twice',
        (profile) => {
          payloads(profile)[2]!.PayloadIdentifier = payloads(profile)[1]!.PayloadIdentifier!;
        },
        'is used twice in the profile',
      ],
    ])('%s', (_, change, problem) => {
      const profile = structuredClone(profiles.get('mdm-full')!) as Extract<TaggedValue, { t: 'dictionary' }>;
      change(profile.v);
      const problems = checkProfileAgainstSchemas(profile, schemas);
      expect(problems.some((found) => found.includes(problem)), problems.join('\n')).toBe(true);
    });
  });
});

type Dict = Record<string, TaggedValue>;

/** The payload dictionaries of a tagged profile. */
function payloads(profile: Dict): Dict[] {
  const content = profile.PayloadContent;
  return content?.t === 'array' ? content.v.map((payload) => payload.v as Dict) : [];
}

/** The first item of an array of dictionaries, found by a path of keys from a payload. */
function entry(payload: Dict, ...keys: string[]): Dict {
  let value: TaggedValue = { t: 'dictionary', v: payload };
  for (const key of keys) value = (value.v as Dict)[key]!;
  return (value.v as TaggedValue[])[0]!.v as Dict;
}
