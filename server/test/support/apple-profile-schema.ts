/**
 * A strict check of a configuration profile against Apple's published profile schemas (the
 * `apple/device-management` repository's `mdm/profiles/*.yaml`, kept beside the repository in
 * `../shared/apple-schemas/`, never copied into it). The profile is read by Python's plistlib,
 * with every value's plist type kept, so an <integer> is not taken for a <real>.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** Where the schemas are: `shared/apple-schemas` beside the repository, as CI clones them. */
export const appleSchemasDir = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'apple-schemas');

/** Why the schema check cannot run here, or undefined when it can. */
export function appleSchemasMissing(): string | undefined {
  return existsSync(path.join(appleSchemasDir, 'TopLevel.yaml'))
    ? undefined
    : `Apple's profile schemas are not at ${appleSchemasDir} (clone the shared folder beside the repository)`;
}

/** A key of a schema's `payloadkeys`, as the YAML files write it. */
export interface SchemaKey {
  key: string;
  type: string;
  presence?: 'required' | 'optional';
  rangelist?: unknown[];
  subkeys?: SchemaKey[];
  supportedOS?: { macOS?: { introduced?: string } };
}

interface SchemaFile {
  payload: { payloadtype: string; supportedOS?: { macOS?: { introduced?: string } } };
  payloadkeys: SchemaKey[];
}

/** The schemas, by payload type, with TopLevel and CommonPayloadKeys among them. */
export type AppleSchemas = Map<string, SchemaFile>;

/** Reads every schema file of the folder. */
export function loadAppleSchemas(dir = appleSchemasDir): AppleSchemas {
  const schemas: AppleSchemas = new Map();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.yaml'))) {
    const schema = parseYaml(readFileSync(path.join(dir, name), 'utf8'), { maxAliasCount: -1 }) as SchemaFile;
    schemas.set(schema.payload.payloadtype, schema);
  }
  return schemas;
}

/** A plist value with its plist type, as plistlib read it. */
export type TaggedValue =
  | { t: 'string'; v: string }
  | { t: 'integer' | 'real'; v: number }
  | { t: 'boolean'; v: boolean }
  | { t: 'data' | 'date'; v: string }
  | { t: 'array'; v: TaggedValue[] }
  | { t: 'dictionary'; v: Record<string, TaggedValue> };

/** Reads a plist file with Python's plistlib, keeping each value's type. */
export function readTaggedPlist(file: string): TaggedValue {
  const code = `
import datetime, json, plistlib, sys
def tag(v):
    if isinstance(v, bool): return {"t": "boolean", "v": v}
    if isinstance(v, int): return {"t": "integer", "v": v}
    if isinstance(v, float): return {"t": "real", "v": v}
    if isinstance(v, str): return {"t": "string", "v": v}
    if isinstance(v, bytes): return {"t": "data", "v": v.hex()}
    if isinstance(v, datetime.datetime): return {"t": "date", "v": v.isoformat()}
    if isinstance(v, list): return {"t": "array", "v": [tag(x) for x in v]}
    if isinstance(v, dict): return {"t": "dictionary", "v": {k: tag(x) for k, x in v.items()}}
    raise TypeError(type(v))
print(json.dumps(tag(plistlib.load(open(sys.argv[1], "rb")))))
`;
  const run = spawnSync('python3', ['-c', code, file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`plistlib cannot read ${file}: ${run.stderr}`);
  return JSON.parse(run.stdout) as TaggedValue;
}

/**
 * Every way the profile departs from the schemas: an unknown key, a key macOS does not support,
 * a wrong type, a missing required key, a value outside its rangelist, a payload type without a
 * schema or not for macOS, a PayloadUUID or PayloadIdentifier used twice. Empty when it conforms.
 */
export function checkProfileAgainstSchemas(profile: TaggedValue, schemas: AppleSchemas): string[] {
  const problems: string[] = [];
  const topLevel = schemas.get('TopLevel')!;
  const common = schemas.get('CommonPayloadKeys')!;
  // The payloads are checked against their own schemas below, not as TopLevel's <any> items.
  checkValue(profile, { key: 'profile', type: '<dictionary>', subkeys: topLevel.payloadkeys }, 'profile', problems, { skip: 'PayloadContent' });
  if (profile.t !== 'dictionary') return problems;

  const payloads = profile.v.PayloadContent;
  const payloadList = payloads?.t === 'array' ? payloads.v : [];
  if (payloads) checkValue(payloads, { key: 'PayloadContent', type: '<array>' }, 'profile.PayloadContent', problems);
  const uuids = [profile.v.PayloadUUID];
  const identifiers = [profile.v.PayloadIdentifier];
  payloadList.forEach((payload, index) => {
    const at = `profile.PayloadContent[${index}]`;
    if (payload.t !== 'dictionary') return void problems.push(`${at}: is a ${payload.t}, not a dictionary`);
    const type = payload.v.PayloadType;
    const schema = type?.t === 'string' ? schemas.get(type.v) : undefined;
    if (!schema || type?.t !== 'string' || type.v === 'TopLevel' || type.v === 'CommonPayloadKeys') {
      return void problems.push(`${at}: no Apple schema defines the PayloadType ${JSON.stringify(type?.v)}`);
    }
    if (schema.payload.supportedOS?.macOS?.introduced === 'n/a') problems.push(`${at}: ${type.v} is not supported on macOS`);
    const keys = [...common.payloadkeys.filter((key) => !schema.payloadkeys.some((own) => own.key === key.key)), ...schema.payloadkeys];
    checkValue(payload, { key: type.v, type: '<dictionary>', subkeys: keys }, `${at} (${type.v})`, problems);
    uuids.push(payload.v.PayloadUUID);
    identifiers.push(payload.v.PayloadIdentifier);
  });
  for (const [what, values] of [
    ['PayloadUUID', uuids],
    ['PayloadIdentifier', identifiers],
  ] as const) {
    const seen = new Set<string>();
    for (const value of values) {
      if (value?.t !== 'string') continue;
      const normalized = what === 'PayloadUUID' ? value.v.toUpperCase() : value.v;
      if (seen.has(normalized)) problems.push(`${what} ${value.v} is used twice in the profile`);
      seen.add(normalized);
    }
  }
  return problems;
}

const plistTypes: Record<string, TaggedValue['t'][] | undefined> = {
  '<string>': ['string'],
  '<integer>': ['integer'],
  '<real>': ['real'],
  '<boolean>': ['boolean'],
  '<data>': ['data'],
  '<date>': ['date'],
  '<array>': ['array'],
  '<dictionary>': ['dictionary'],
  '<any>': undefined,
};

function checkValue(value: TaggedValue, spec: SchemaKey, at: string, problems: string[], options: { skip?: string } = {}): void {
  if (!(spec.type in plistTypes)) return void problems.push(`${at}: the schema's type ${spec.type} is unknown to this check`);
  const allowed = plistTypes[spec.type];
  if (allowed && !allowed.includes(value.t)) return void problems.push(`${at}: is a <${value.t}>, the schema says ${spec.type}`);
  if (spec.rangelist && !spec.rangelist.some((item) => item === value.v)) {
    problems.push(`${at}: ${JSON.stringify(value.v)} is not one of ${JSON.stringify(spec.rangelist)}`);
  }
  if (!spec.subkeys) return;
  if (value.t === 'array') {
    // An array's one subkey describes its items; its key is only a label.
    value.v.forEach((item, index) => checkValue(item, spec.subkeys![0]!, `${at}[${index}]`, problems));
  } else if (value.t === 'dictionary') {
    checkDictionary(value.v, spec.subkeys, at, problems, options.skip);
  }
}

function checkDictionary(dict: Record<string, TaggedValue>, keys: SchemaKey[], at: string, problems: string[], skip?: string): void {
  const anyKey = keys.find((key) => key.key === 'ANY');
  for (const [name, value] of Object.entries(dict)) {
    if (name === skip) continue;
    const spec = keys.find((key) => key.key === name) ?? anyKey;
    if (!spec) {
      problems.push(`${at}: unknown key ${name}`);
      continue;
    }
    if (spec.supportedOS?.macOS?.introduced === 'n/a') problems.push(`${at}.${name}: not supported on macOS`);
    checkValue(value, spec, `${at}.${name}`, problems);
  }
  for (const key of keys) {
    const present = key.key === 'ANY' ? Object.keys(dict).length > 0 : key.key in dict;
    if (key.presence === 'required' && !present) problems.push(`${at}: lacks the required key ${key.key}`);
  }
}
