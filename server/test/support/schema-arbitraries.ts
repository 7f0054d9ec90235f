import fc from 'fast-check';
import type { JsonSchema } from './documented-operations.js';

/** Values known to the server, by parameter or property name (ids it holds), mixed into the values generated for that name. */
export type KnownValues = Record<string, readonly string[]>;

const dayMs = 86_400_000;
const largestSmallInteger = 2 ** 31 - 1;

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  return schema.properties ? ['object'] : [];
}

function integers(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1000;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  if (max <= largestSmallInteger) return fc.integer({ min, max });
  // fast-check's integer() is 32-bit: small values, the largest and any safe one up to it (with no maximum, any safe one).
  return fc.oneof(fc.integer({ min, max: min + 1000 }), fc.constant(max), fc.maxSafeNat().filter((n) => n >= min && n <= max));
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') {
    // Around now, where the rules about dates (an expiry within a year) are met and broken.
    const now = Date.now();
    return fc.date({ min: new Date(now - 400 * dayMs), max: new Date(now + 400 * dayMs), noInvalidDate: true }).map((date) => date.toISOString());
  }
  // A day, as `z.iso.date()` documents it (a filter's "since").
  if (schema.format === 'date') return fc.date({ min: new Date(Date.now() - 400 * dayMs), max: new Date(Date.now() + 400 * dayMs), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

/**
 * Values valid against a JSON Schema of the documents: the subset they use (types, enums,
 * formats uuid, date and date-time, patterns, bounds, objects with required and additional
 * properties, oneOf and anyOf). `name` is the property or parameter the value is for.
 */
export function validValue(schema: JsonSchema, known: KnownValues = {}, name = ''): fc.Arbitrary<unknown> {
  const generated = validByType(schema, known);
  const values = known[name];
  return values?.length ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
}

function validByType(schema: JsonSchema, known: KnownValues): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // An object's own properties beside `anyOf`: each variant adds its constraints to them (at least one of these properties, say).
  if (schema.properties && schema.anyOf) return fc.oneof(...schema.anyOf.map((variant) => validByType(narrowed(schema, variant), known)));
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return fc.oneof(...variants.map((variant) => validValue(variant, known)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validByType({ ...schema, type }, known)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integers(schema);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return strings(schema);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, known), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, known, key)]));
      const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
      return schema.minProperties ? record.filter((value) => Object.keys(value).length >= schema.minProperties!) : record;
    }
    default:
      return fc.jsonValue();
  }
}

/** An object schema with one variant of its `anyOf` applied: its required properties and its properties' constraints added. */
function narrowed(schema: JsonSchema, variant: JsonSchema): JsonSchema {
  const { anyOf: _variants, ...rest } = schema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, { ...property, ...variant.properties?.[key] }]));
  return { ...rest, properties, required: [...(schema.required ?? []), ...(variant.required ?? [])] };
}

/**
 * A value the schema refuses, as text of a query or path parameter, or undefined when the
 * schema accepts any text (a free string).
 */
export function invalidText(schema: JsonSchema): fc.Arbitrary<string> | undefined {
  const types = typesOf(schema);
  if (schema.enum || schema.const !== undefined) return fc.constantFrom('not-one-of-them', 'ZZZ', '');
  if (types.includes('integer')) {
    const tooLarge = schema.maximum === undefined ? [] : [String(schema.maximum + 1)];
    const tooSmall = schema.minimum === undefined ? [] : [String(schema.minimum - 1)];
    return fc.constantFrom('x', '1.5', '1e3', '', ...tooLarge, ...tooSmall);
  }
  if (types.includes('boolean')) return fc.constantFrom('yes', '1', 'TRUE', '');
  if (schema.format === 'uuid') return fc.constantFrom('not-a-uuid', '3f0c2a8e-6d1b-4c55-9a0e', '3f0c2a8e6d1b4c559a0e2b7f1c9d4e10x');
  if (schema.format === 'date-time') return fc.constantFrom('yesterday', '2026-13-01T00:00:00Z', '2026-03-01');
  if (schema.maxLength !== undefined && schema.maxLength < 2000) return fc.constant('a'.repeat(schema.maxLength + 1));
  if (schema.pattern) return fc.constantFrom('Not valid!', '~~', '-').filter((text) => !new RegExp(schema.pattern!).test(text));
  return undefined;
}

/** A JSON value of a type the schema refuses, or undefined when it takes any. */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  if (schema.oneOf || schema.anyOf) return fc.constant(12345.5);
  const types = typesOf(schema);
  if (types.length === 0) return undefined;
  const wrong: unknown[] = [{ an: 'object' }, [1, 2], 'text', 12345.5, true, null].filter((value) => !accepts(types, value));
  if (schema.enum) wrong.push('not-one-of-them');
  if (types.includes('string') && !schema.enum && schema.const === undefined) wrong.push(...invalidStrings(schema));
  return wrong.length ? fc.constantFrom(...wrong) : undefined;
}

function accepts(types: string[], value: unknown): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

/** Strings a string schema refuses by its bounds or its pattern: too short, too long, or not matching. */
function invalidStrings(schema: JsonSchema): string[] {
  const wrong: string[] = [];
  if (schema.minLength) wrong.push('');
  if (schema.maxLength !== undefined && schema.maxLength < 2000) wrong.push('a'.repeat(schema.maxLength + 1));
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    wrong.push(...['Not valid!', '~~', '-', ';', ',', 'a\u0001b', ' ', '[::'].filter((text) => !pattern.test(text)));
  }
  return wrong;
}
