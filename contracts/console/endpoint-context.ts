/**
 * The local context of an organization's endpoints (issue 28): tags and a criticality per
 * endpoint, kept per organization by endpoint id across syncs, and tag rules that tag every
 * endpoint matching a condition at read time. Served under /app only, never by /v1.
 */
import * as z from 'zod';
import { cidrPattern } from '../address-patterns.js';
import { countSchema, dateTimeSchema, uuidSchema } from '../common.js';
import { endpointCriticalities, endpointTagLimits, filterableOsFamilies } from '../enums.js';
import { globLimits, globShape } from '../glob.js';

const { tagLength, tagsPerEndpoint, conditionsPerRule } = endpointTagLimits;

/**
 * A tag once trimmed: no separator of the CSV file's `tags` column (`;` and `,`) and no control
 * character (Unicode's Cc), so that a list of tags always splits back into the same tags, and
 * one character at least that is not white space. Written without `\p{…}`, which a JSON Schema
 * validator need not know, since the document shows it.
 */
const allowedInTag = '[^;,\\u0000-\\u001f\\u007f-\\u009f]';
const tagPattern = new RegExp(`^${allowedInTag}*[^;,\\s\\u0000-\\u001f\\u007f-\\u009f]${allowedInTag}*$`);

/**
 * A tag as a client gives it: trimmed, 1 to 64 characters, without `;`, `,` or control
 * characters. Tags compare case-insensitively: "Finance" and "finance" are one tag, spelt as the
 * organization first spelt it.
 */
export const endpointTagSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(tagLength, `must be at most ${tagLength} characters`)
  .regex(tagPattern, 'must not contain ";", "," or control characters')
  .meta({ example: 'finance', description: `A tag: trimmed, 1 to ${tagLength} characters, no ";", "," or control characters; compared case-insensitively.` });

/** The key a tag is compared by: its lower case. */
export function tagKey(tag: string): string {
  return tag.trim().toLowerCase();
}

/**
 * A list of tags: each normalized, the same tag twice (in any case) kept once in its first
 * spelling; at most 32.
 */
export const endpointTagListSchema = z
  .array(endpointTagSchema)
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((tag) => !seen.has(tagKey(tag)) && seen.add(tagKey(tag)));
  })
  .pipe(z.array(z.string()).max(tagsPerEndpoint, `must hold at most ${tagsPerEndpoint} tags`));

/** How much an endpoint matters: `normal` unless set. */
export const endpointCriticalitySchema = z
  .enum(endpointCriticalities, { error: `must be one of ${endpointCriticalities.join(', ')}` })
  .meta({ id: 'EndpointCriticality', description: 'How much the endpoint matters to the organization; normal unless set.' });

/** Where an endpoint's tag comes from: set on it, or given by a tag rule. */
export const tagSourceSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('explicit') }).meta({ description: 'Set on the endpoint (by hand, in bulk or by a CSV import).' }),
    z.object({ kind: z.literal('rule'), rule_id: uuidSchema }).meta({ description: 'Given by the tag rule of this id, at read time.' }),
  ])
  .meta({ id: 'TagSource' });
export type TagSource = z.output<typeof tagSourceSchema>;

/** One tag of an endpoint with where it comes from (explicit first, then rules by creation). */
export const endpointTagSchemaWithSources = z
  .object({ tag: z.string(), sources: z.array(tagSourceSchema).min(1) })
  .meta({ id: 'EndpointTag' });
export type EndpointTag = z.output<typeof endpointTagSchemaWithSources>;

/** `GET` and `PUT /app/orgs/:slug/endpoints/:endpointId/context`: an endpoint's context now. */
export const endpointContextSchema = z
  .object({
    endpoint_id: uuidSchema,
    tags: z.array(endpointTagSchemaWithSources).meta({ description: 'Its tags, explicit and from rules, sorted case-insensitively; at most 32.' }),
    explicit_tags: z.array(z.string()).meta({ description: 'The tags set on it (what an edit replaces); rule tags are not among them unless also set.' }),
    criticality: endpointCriticalitySchema,
  })
  .meta({ id: 'EndpointContext' });
export type EndpointContext = z.output<typeof endpointContextSchema>;

/** `PUT /app/orgs/:slug/endpoints/:endpointId/context` body: what is given replaces what was set. */
export const updateEndpointContextBodySchema = z
  .strictObject({
    tags: endpointTagListSchema.optional().meta({ description: "The endpoint's explicit tags, replacing the ones set; rule tags stay whatever this says." }),
    criticality: endpointCriticalitySchema.optional(),
  })
  .refine((body) => body.tags !== undefined || body.criticality !== undefined, { error: 'must give tags or criticality' })
  .meta({ id: 'UpdateEndpointContext', minProperties: 1 });
export type UpdateEndpointContextBody = z.output<typeof updateEndpointContextBodySchema>;

/**
 * The endpoints a bulk change selects: the query string of the endpoints list
 * (`GET /app/orgs/:slug/endpoints`) as its URL gives it, its filters and `q`; paging and order
 * are ignored; empty selects every endpoint.
 */
export const endpointSelectionSchema = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .meta({ example: 'osFamily=windows&q=fin', description: "The endpoints list's query string (filters and q; limit, offset and sort are ignored); empty selects every endpoint." });

/** `POST /app/orgs/:slug/endpoint-context/bulk` body. */
export const bulkUpdateEndpointContextBodySchema = z
  .strictObject({
    filter: endpointSelectionSchema,
    add_tags: endpointTagListSchema.optional().meta({ description: 'Tags set on every endpoint selected (kept once each).' }),
    remove_tags: endpointTagListSchema.optional().meta({ description: 'Tags no longer set on them (a rule that gives one still does).' }),
    criticality: endpointCriticalitySchema.optional(),
  })
  .refine((body) => Boolean(body.add_tags?.length || body.remove_tags?.length || body.criticality), {
    error: 'must give add_tags, remove_tags or criticality',
  })
  .meta({
    id: 'BulkUpdateEndpointContext',
    // The refinement above, as the document says it.
    anyOf: [
      { required: ['add_tags'], properties: { add_tags: { minItems: 1 } } },
      { required: ['remove_tags'], properties: { remove_tags: { minItems: 1 } } },
      { required: ['criticality'] },
    ],
  });
export type BulkUpdateEndpointContextBody = z.output<typeof bulkUpdateEndpointContextBodySchema>;
/** What a client sends for a bulk change (the filter's values as strings). */
export type BulkUpdateEndpointContextInput = z.input<typeof bulkUpdateEndpointContextBodySchema>;

/** The answer of a bulk change. */
export const bulkUpdateEndpointContextResultSchema = z
  .object({
    matched: countSchema.meta({ description: 'Endpoints the filter selected.' }),
    changed: countSchema.meta({ description: 'Those among them whose tags or criticality changed.' }),
  })
  .meta({ id: 'BulkUpdateEndpointContextResult' });
export type BulkUpdateEndpointContextResult = z.output<typeof bulkUpdateEndpointContextResultSchema>;

/** One tag of the organization, with how many endpoints (held now) carry it. */
export const endpointTagCountSchema = z
  .object({
    tag: z.string(),
    endpoints: countSchema.meta({ description: 'Endpoints carrying it, explicit or from a rule.' }),
    explicit: countSchema.meta({ description: 'Endpoints it is set on.' }),
    from_rules: countSchema.meta({ description: 'Endpoints a rule gives it to.' }),
  })
  .meta({ id: 'EndpointTagCount' });
export type EndpointTagCount = z.output<typeof endpointTagCountSchema>;

/** `GET /app/orgs/:slug/endpoint-tags`. */
export const endpointTagListResponseSchema = z
  .object({
    data: z.array(endpointTagCountSchema).meta({ description: 'Every tag of the organization, sorted case-insensitively.' }),
    has_tags: z.boolean().meta({ description: 'Whether the organization has any tag set or any tag rule: where not, tag filters are not evaluated.' }),
    criticality: z.record(z.enum(endpointCriticalities), countSchema).meta({ description: 'Endpoints held now at each criticality.' }),
  })
  .meta({ id: 'EndpointTagList' });
export type EndpointTagListResponse = z.output<typeof endpointTagListResponseSchema>;

const { length: patternLength, stars: patternStars, alternatives: patternAlternatives } = globLimits;

/** A tag rule's glob (matched by contracts/glob.ts), bounded so that matching a value costs a small multiple of reading it. */
const globSchema = z
  .string()
  .trim()
  // Not `min(1)`: the document shows this pattern, which refuses a blank glob before it is trimmed.
  .regex(/\S/, 'must not be empty')
  .max(patternLength, `must be at most ${patternLength} characters`)
  .superRefine((pattern, context) => {
    if (pattern.length > patternLength) return; // Refused above; not parsed.
    const { stars, alternatives } = globShape(pattern);
    if (stars > patternStars) context.addIssue({ code: 'custom', message: `must hold at most ${patternStars} "*" (it holds ${stars})` });
    if (alternatives > patternAlternatives) context.addIssue({ code: 'custom', message: `must give at most ${patternAlternatives} alternatives by its braces` });
  })
  .meta({
    description: `A glob matched case-insensitively against the whole value: \`*\` any run of characters, \`?\` one character, \`[a-z]\` or \`[^a-z]\` one character of a set or not, \`{a,b}\` either alternative, \`\\\` before a character that character itself. At most ${patternLength} characters, ${patternStars} \`*\` and ${patternAlternatives} alternatives.`,
  });

/** What a tag rule tests of an endpoint; a rule's conditions are ANDed. */
export const tagRuleConditionSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('hostname'), pattern: globSchema.meta({ example: 'srv-*' }) }).meta({ description: 'The hostname matches the glob.' }),
    z
      .strictObject({
        kind: z.literal('ip'),
        cidr: z
          .string()
          .trim()
          .max(64)
          // The server parses the range itself, naming it when it does not parse; the pattern tells a tool what it takes.
          .meta({ example: '10.20.0.0/16', pattern: cidrPattern.source, description: 'An IPv4 or IPv6 CIDR range (a bare address is its /32 or /128).' }),
      })
      .meta({ description: "The endpoint's IP is in the range; an endpoint without an IP does not match." }),
    z
      .strictObject({ kind: z.literal('os_family'), os_family: z.enum(filterableOsFamilies, { error: `must be one of ${filterableOsFamilies.join(', ')}` }) })
      .meta({ description: 'The OS family is this one.' }),
    z.strictObject({ kind: z.literal('os_name'), pattern: globSchema.meta({ example: '*Server*' }) }).meta({ description: 'The OS name matches the glob.' }),
    z.strictObject({ kind: z.literal('agent'), has_agent: z.boolean() }).meta({ description: 'The endpoint has (true) or has no (false) agent.' }),
  ])
  .meta({ id: 'TagRuleCondition' });
export type TagRuleCondition = z.output<typeof tagRuleConditionSchema>;

const conditionsSchema = z
  .array(tagRuleConditionSchema)
  .min(1, 'must hold at least one condition')
  .max(conditionsPerRule, `must hold at most ${conditionsPerRule} conditions`)
  .meta({ description: 'Every one must hold (AND).' });

const ruleNoteSchema = z.string().max(500, 'must be at most 500 characters');

/** A tag rule as stored. */
export const tagRuleSchema = z
  .object({
    id: uuidSchema,
    tag: z.string(),
    conditions: z.array(tagRuleConditionSchema),
    note: z.string(),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
    endpoints: countSchema.meta({ description: 'Endpoints held now that it tags.' }),
  })
  .meta({ id: 'TagRule' });
export type TagRule = z.output<typeof tagRuleSchema>;

/** `GET /app/orgs/:slug/tag-rules`: oldest first (the order an endpoint's page lists rule tags in). */
export const tagRuleListSchema = z.object({ data: z.array(tagRuleSchema) }).meta({ id: 'TagRuleList' });
export type TagRuleList = z.output<typeof tagRuleListSchema>;

/** `POST /app/orgs/:slug/tag-rules` body. */
export const createTagRuleBodySchema = z
  .strictObject({ tag: endpointTagSchema, conditions: conditionsSchema, note: ruleNoteSchema.default('') })
  .meta({ id: 'CreateTagRule' });
export type CreateTagRuleBody = z.output<typeof createTagRuleBodySchema>;
export type CreateTagRuleInput = z.input<typeof createTagRuleBodySchema>;

/** `PATCH /app/orgs/:slug/tag-rules/:ruleId` body. */
export const updateTagRuleBodySchema = z
  .strictObject({ tag: endpointTagSchema.optional(), conditions: conditionsSchema.optional(), note: ruleNoteSchema.optional() })
  .refine((body) => Object.keys(body).length > 0, { error: 'must change tag, conditions or note' })
  .meta({ id: 'UpdateTagRule', minProperties: 1 });
export type UpdateTagRuleBody = z.output<typeof updateTagRuleBodySchema>;

/** The CSV file of endpoint context: its columns, in the order export writes them. */
export const endpointContextCsvColumns = ['id', 'hostname', 'tags', 'criticality'] as const;

/** `POST /app/orgs/:slug/endpoint-context/import` answer. */
export const endpointContextImportResultSchema = z
  .object({
    lines: countSchema.meta({ description: 'Lines of the file, the header aside.' }),
    endpoints: countSchema.meta({ description: 'Endpoints the lines named (a hostname may name several).' }),
    changed: countSchema.meta({ description: 'Those whose tags or criticality changed.' }),
  })
  .meta({ id: 'EndpointContextImportResult' });
export type EndpointContextImportResult = z.output<typeof endpointContextImportResultSchema>;
