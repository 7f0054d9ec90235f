/**
 * The registry of the four collections of the specification: one entry per collection holds
 * every fact about it that crosses a boundary — its path under /v1 and /app, its labels, the
 * schemas of its items (as answered, and as a remote tenant may send them), its filters, sort
 * keys and free-text search, its CSV columns — and the queries of its /v1 and console lists are
 * built from them. The store adds the SQL of each entry (server/store/basics/collection-tables.ts),
 * typed by the entry so that a filter or sort key without its SQL does not compile.
 *
 * Adding a filter is one line in `filters` here and its control in the console's view.
 */
import * as z from 'zod';
import { collectionBasics } from './collection-basics.js';
import { dateTimeSchema, listEnvelopeSchema, osFamilySchema } from './common.js';
import { endpointContextFilters, osFamilyFilter } from './console/endpoint-context-filters.js';
import { exceptedExposureShape, findingExceptionSchema } from './console/exceptions.js';
import { intelFilters } from './console/intel-filters.js';
import { exposureShape, exposureSortKinds } from './console/exposure.js';
import { endpointIntelShape, findingIntelFilters, findingIntelShape, kevListingSchema } from './console/exploit-intel.js';
import { endpointFixByFilters, endpointFixByShape, findingFixByFilters, findingFixByShape } from './console/fix-by.js';
import { type FixByStep, fixByPathText } from './fix-by.js';
import { type CsvColumn, field, spread } from './csv-columns.js';
import { endpointInputSchema, endpointSchema, operatingSystemSchema } from './endpoint.js';
import { endpointCriticalities, findingSeverities, findingStatuses, scopeStatuses, targetStatuses, targetTypes } from './enums.js';
import {
  type ConsoleFilter,
  type Filter,
  type SortKind,
  booleanFilter,
  byEndpoint,
  choiceFilter,
  cveFilter,
  flagFilter,
  pagingShape,
  sortSchema,
  textSchema,
  uuidFilter,
} from './list-queries.js';
import { deadlineExplanation } from './remediation-deadlines.js';
import { remediationTargetInputSchema, remediationTargetSchema } from './remediation-target.js';
import { scopeInputSchema, scopeSchema } from './scope.js';
import { vulnerabilityFindingInputSchema, vulnerabilityFindingSchema } from './vulnerability-finding.js';

/** The facts an entry is written with; {@link defineCollection} adds what follows from them. */
interface CollectionFacts<
  Item extends z.ZodObject,
  Filters extends Record<string, Filter>,
  SortKeys extends Record<string, SortKind>,
  ConsoleFields extends z.ZodRawShape,
  ConsoleFilters extends Record<string, ConsoleFilter>,
> {
  /** The path segment of the collection under /v1 and /app/orgs/:slug. */
  path: string;
  /** The name of a get's id path parameter, as the specification and error messages call it. */
  idParameter: string;
  labels: {
    /** The view's title: "Endpoints". */
    title: string;
    /** What one item is, in a sentence: "endpoint". */
    noun: string;
    /** How an answer names one item: "Endpoint" (in "Endpoint … not found"). */
    resource: string;
  };
  /** An item as the API answers it: every field present, null where unknown. */
  item: Item;
  /** What a remote tenant may send for an item: validated by sync, optional fields defaulted. */
  input: z.ZodType<z.output<Item>, unknown>;
  /** The filters of the list, by query parameter: the camelCase of the field they filter. */
  filters: Filters;
  /** Filters of the console's list only (never of /v1), by query parameter: `overdue=true`. */
  consoleFilters: ConsoleFilters;
  /** The console's sort keys besides `created_at`, with how each compares. */
  sortKeys: SortKeys;
  /**
   * What the console's list, detail and CSV add to each item (an endpoint's exposure, a
   * finding's hostname): never in /v1, which answers exactly the specification's items.
   */
  consoleFields: ConsoleFields;
  /** What the console's `q` matches, for its search box and the OpenAPI document. */
  search: string;
  /** The CSV export's columns; by default every field of the console's item, in the schema's order. */
  csvColumns?: CsvColumn[];
}

type FilterShape<F extends Record<string, Filter | ConsoleFilter>> = { [P in keyof F]: F[P]['schema'] };

/** The query schemas of filters, by parameter. */
const filterShapeOf = <F extends Record<string, Filter | ConsoleFilter>>(filters: F) =>
  Object.fromEntries(Object.entries(filters).map(([param, filter]) => [param, filter.schema])) as FilterShape<F>;

/** The field naming an item's organization (its slug) where items of several are listed together: a report's appendix. */
export const organizationField = 'organization';

function defineCollection<
  const Item extends z.ZodObject,
  const Filters extends Record<string, Filter>,
  const SortKeys extends Record<string, SortKind>,
  const ConsoleFields extends z.ZodRawShape,
  const ConsoleFilters extends Record<string, ConsoleFilter>,
>(facts: CollectionFacts<Item, Filters, SortKeys, ConsoleFields, ConsoleFilters>) {
  const v1Query = z.object({ ...pagingShape, ...filterShapeOf(facts.filters) });
  const sortKeys = [...(Object.keys(facts.sortKeys) as (keyof SortKeys & string)[]), 'created_at' as const];
  const consoleQuery = v1Query.extend({ ...filterShapeOf(facts.consoleFilters), sort: sortSchema(sortKeys), q: textSchema.meta({ description: facts.search }) });
  const resourceId = facts.labels.resource.replace(/ (\w)/g, (_, letter: string) => letter.toUpperCase());
  // Typed by the entry's shapes: `extend` on an object schema of a generic shape loses its fields' types.
  const consoleItem = facts.item.extend(facts.consoleFields).meta({ id: `Console${resourceId}` }) as unknown as z.ZodObject<Item['shape'] & ConsoleFields>;
  const csvColumns = facts.csvColumns ?? Object.keys(consoleItem.shape).map(field);
  return {
    ...facts,
    sortKeys,
    sortKinds: facts.sortKeys,
    /** The query of the /v1 list: paging, `updatedSince` and the filters. */
    v1Query,
    /** The query of the console's list: the /v1 query with the console's filters, `sort` and `q`. */
    consoleQuery,
    /** The path of the /v1 list: `/v1/<path>`. */
    v1Path: `/v1/${facts.path}`,
    /** The list envelope of one page of /v1. */
    list: listEnvelopeSchema(facts.item, `${resourceId}List`),
    /** An item as the console's list and detail answer it: the /v1 item with {@link CollectionFacts.consoleFields}. */
    consoleItem,
    /** The list envelope of one page of the console. */
    consoleList: listEnvelopeSchema(consoleItem, `Console${resourceId}List`),
    csvColumns,
    /**
     * The columns of rows of several organizations (a report's appendix): the item's
     * `organization` (its organization's slug) first, then {@link CollectionFacts.csvColumns}.
     */
    csvColumnsOfOrganizations: [field(organizationField), ...csvColumns],
    /** The OpenAPI id of an item, e.g. `RemediationTarget`. */
    resourceId,
  };
}

/** The filters of the endpoints' list; the console's findings and targets lists apply them to each item's endpoint. */
const endpointFilters = { osFamily: osFamilyFilter, hasAgent: booleanFilter };

/** The console filters by context of a list whose items are endpoints or name one (`the findings of endpoints`): by that endpoint's tags and criticality. */
const byContextFilters = (items: string) => ({
  tag: byEndpoint(endpointContextFilters.tag, `Only ${items} with this tag (set on it or given by a tag rule; without case).`),
  criticality: byEndpoint(endpointContextFilters.criticality, `Only ${items} of this criticality.`),
});

/** The console filters of a list whose items name an endpoint: the endpoints' filters and those by context, by the item's endpoint. */
const byEndpointFilters = (items: string) => ({
  osFamily: byEndpoint(endpointFilters.osFamily, `Only the ${items} whose endpoint's OS family is this one.`),
  hasAgent: byEndpoint(endpointFilters.hasAgent, `Only the ${items} whose endpoint has (true) or has no (false) agent.`),
  ...byContextFilters(`the ${items} of endpoints`),
});

/** What the console adds to an item that names an endpoint: the facts of it that {@link byEndpointFilters} filter by. */
const endpointFactFields = {
  endpoint_os_family: osFamilySchema.nullable().meta({ description: "The OS family of the item's endpoint; null when the replica does not hold it." }),
  endpoint_has_agent: z.boolean().nullable().meta({ description: "Whether the item's endpoint has an agent; null when the replica does not hold it." }),
};

/** What the console adds to an endpoint besides its exposure: its local context, and the risk before criticality weighs it. */
const endpointContextFields = {
  tags: z.array(z.string()).meta({ description: 'Its tags, set on it or given by a tag rule, sorted without case.' }),
  criticality: z.enum(endpointCriticalities).meta({ description: 'What the endpoint is worth to the organization: normal unless set.' }),
  risk_score_before_criticality: z.number().min(0).meta({ description: 'The risk score with its findings weighing as on a normal endpoint (after exceptions).' }),
};

/** What the console adds to a finding: where it is, how long it has been open and when it is due, and the exception that leaves it out. */
const findingConsoleFields = {
  endpoint_hostname: z.string().nullable().meta({ description: "The endpoint's hostname; null when the replica does not hold it." }),
  ...endpointFactFields,
  target_product: z.string().nullable().meta({ description: "The remediation target's product; null when absent." }),
  target_version: z.string().nullable().meta({ description: "The remediation target's version; null when absent." }),
  age_days: z
    .number()
    .int()
    .min(0)
    .nullable()
    .meta({
      description:
        'Whole days the finding has been open: from first detection until now when open, until remediated_at when remediated (null when that is unknown).',
    }),
  due_at: dateTimeSchema.nullable().meta({ description: `${deadlineExplanation} Null without a deadline.` }),
  overdue: z.boolean().meta({ description: 'Open past its due date and not under an exception.' }),
  exception: findingExceptionSchema,
  ...findingIntelShape,
  ...findingFixByShape,
};

/** A finding's KEV entry in CSV: a column per field, empty when no catalog lists it; its sources joined with a space. */
const kevColumns: CsvColumn[] = Object.keys(kevListingSchema.shape).map((name) => ({
  header: `kev.${name}`,
  value: (item) => {
    const kev = item.kev as Record<string, unknown> | null;
    const value = kev?.[name] ?? null;
    return Array.isArray(value) ? value.join(' ') : (value as string | number | boolean | null);
  },
}));

/** A finding's fix-by path in CSV: one line, "In KEV: yes (CISA 2025.08.25) → … → 14 days, by 2026-12-01"; empty when not open. */
const fixByPathColumn: CsvColumn = {
  header: 'fix_by_path',
  value: (item) => {
    const path = item.fix_by_path as FixByStep[];
    return path.length === 0 ? null : fixByPathText({ bod2604_outcome: item.bod2604_outcome as never, fix_by: item.fix_by as string | null, fix_by_path: path });
  },
};

/** The collections, in the order of the specification. */
export const collections = {
  endpoints: defineCollection({
    ...collectionBasics.endpoints,
    idParameter: 'endpointId',
    item: endpointSchema,
    input: endpointInputSchema,
    filters: endpointFilters,
    consoleFilters: { ...byContextFilters('the endpoints'), ...endpointFixByFilters },
    // `exploit_probability_30d`: endpoints without one (no EPSS file imported) last in both directions;
    // `fix_by`, the earliest of its open findings: endpoints without one last in both directions.
    sortKeys: { hostname: 'text', os_family: 'value', os_version: 'value', updated_at: 'value', ...exposureSortKinds, exploit_probability_30d: 'value', fix_by: 'value' },
    consoleFields: { ...exposureShape, ...exceptedExposureShape, ...endpointContextFields, ...endpointIntelShape, ...endpointFixByShape },
    search: 'Hostname or IP address contains this text (case-insensitive).',
    // The operating system and the open findings are spread over `operating_system.*` and `open_findings.*` columns; tags are joined with "; ".
    csvColumns: [
      ...Object.keys(endpointSchema.shape),
      ...Object.keys(exposureShape),
      ...Object.keys(exceptedExposureShape),
      ...Object.keys(endpointContextFields),
      ...Object.keys(endpointIntelShape),
      ...Object.keys(endpointFixByShape),
    ].flatMap(
      (name) =>
        name === 'operating_system'
          ? spread(name, operatingSystemSchema.shape)
          : name === 'open_findings'
            ? spread(name, exposureShape.open_findings.shape)
            : name === 'tags'
              ? [{ header: name, value: (item) => (item[name] as string[]).join('; ') }]
              : [field(name)],
    ),
  }),
  remediationTargets: defineCollection({
    ...collectionBasics.remediationTargets,
    idParameter: 'targetId',
    item: remediationTargetSchema,
    input: remediationTargetInputSchema,
    filters: { endpointId: uuidFilter, targetType: choiceFilter(targetTypes), status: choiceFilter(targetStatuses) },
    consoleFilters: byEndpointFilters('targets'),
    sortKeys: { vendor: 'text', product: 'text', version: 'value', highest_cvss_score: 'value', status: 'value' },
    consoleFields: { ...endpointFactFields, ...endpointIntelShape },
    search: 'Product, vendor or package name contains this text (case-insensitive).',
    // CVE lists are joined with spaces.
    csvColumns: [...Object.keys(remediationTargetSchema.shape), ...Object.keys(endpointFactFields), ...Object.keys(endpointIntelShape)].map((name) =>
      name === 'associated_cves' ? { header: name, value: (item) => (item[name] as string[]).join(' ') } : field(name),
    ),
  }),
  scopes: defineCollection({
    ...collectionBasics.scopes,
    idParameter: 'scopeId',
    item: scopeSchema,
    input: scopeInputSchema,
    filters: { status: choiceFilter(scopeStatuses) },
    consoleFilters: {},
    sortKeys: { name: 'text', status: 'value' },
    consoleFields: {},
    search: 'Name contains this text (case-insensitive).',
  }),
  findings: defineCollection({
    ...collectionBasics.findings,
    idParameter: 'findingId',
    item: vulnerabilityFindingSchema,
    input: vulnerabilityFindingInputSchema,
    filters: {
      endpointId: uuidFilter,
      remediationTargetId: uuidFilter,
      severity: choiceFilter(findingSeverities),
      status: choiceFilter(findingStatuses),
      isKev: booleanFilter,
      cveId: cveFilter,
    },
    consoleFilters: {
      overdue: { ...flagFilter, schema: flagFilter.schema.meta({ description: 'Only the overdue findings: open past their due date, not under an exception.' }) },
      ...intelFilters,
      ...byEndpointFilters('findings'),
      ...findingIntelFilters,
      ...findingFixByFilters,
    },
    // `risk`: KEV first, then by CVSS (descending, the console's default order of findings).
    sortKeys: {
      risk: 'value',
      severity: 'value',
      cvss_score: 'value',
      cve_id: 'value',
      status: 'value',
      first_detected_at: 'value',
      endpoint_hostname: 'text',
      target_product: 'text',
      due_at: 'value',
      // EPSS of the finding's CVE; findings without a score last in both directions.
      epss: 'value',
      // The fix-by date; findings without one (fix on system upgrade, not open) last in both directions.
      fix_by: 'value',
    },
    consoleFields: findingConsoleFields,
    search: "CVE id, title or the endpoint's hostname contains this text (case-insensitive).",
    // The exception is spread over `exception.id`, `exception.reason` and `exception.expires_at` (empty when none), the KEV entry
    // over `kev.date_added`, `kev.due_date`, ... (its sources joined with a space).
    csvColumns: [...Object.keys(vulnerabilityFindingSchema.shape), ...Object.keys(findingConsoleFields)].flatMap((name) =>
      name === 'exception'
        ? spread(name, findingExceptionSchema.unwrap().shape)
        : name === 'kev'
          ? kevColumns
          : name === 'fix_by_path'
            ? [fixByPathColumn]
            : [field(name)],
    ),
  }),
};

/** The registry's type. */
export type Collections = typeof collections;
/** The one name of a collection, everywhere: store, sync, HTTP and console. */
export type CollectionName = keyof Collections;
/** The collections' names, in the specification's order. */
export const collectionNames = Object.keys(collections) as CollectionName[];
/** An item of a collection, as /v1 answers it. */
export type CollectionItem<C extends CollectionName> = z.output<Collections[C]['item']>;
/** An item of a collection, as the console's list and detail answer it. */
export type ConsoleItem<C extends CollectionName> = z.output<Collections[C]['consoleItem']>;
/** The parsed query of a collection's /v1 list. */
export type V1Query<C extends CollectionName> = z.output<Collections[C]['v1Query']>;
/** The parsed query of a collection's console list. */
export type ConsoleQuery<C extends CollectionName> = z.output<Collections[C]['consoleQuery']>;
/** A sort key of a collection's console list. */
export type SortKey<C extends CollectionName> = Collections[C]['sortKeys'][number];
/** A filter parameter of a collection. */
export type FilterParameter<C extends CollectionName> = keyof Collections[C]['filters'] & string;
/** A parameter of a filter of a collection's console list only. */
export type ConsoleFilterParameter<C extends CollectionName> = keyof Collections[C]['consoleFilters'] & string;
/** The parameters of a collection's console filters of one kind: `flag` (`overdue`) or `endpoint` (`osFamily` of findings). */
export type ConsoleFilterParameterOf<C extends CollectionName, K extends ConsoleFilter['kind']> = {
  [P in ConsoleFilterParameter<C>]: Collections[C]['consoleFilters'][P] extends { kind: K } ? P : never;
}[ConsoleFilterParameter<C>];
/** The collection served under a path segment, if any. */
export function collectionAtPath(path: string): CollectionName | undefined {
  return collectionNames.find((name) => collections[name].path === path);
}
/** A query schema of a list: what parses the raw strings of its query into `T`. */
export type ListQuerySchema<T> = z.ZodType<T> & { shape: Record<string, z.ZodType> };

/**
 * Each collection's query and input schemas, typed by its name: code generic over the collections indexes
 * these with a generic name and gets that collection's query type (TypeScript keeps the link
 * through a mapped type, where it loses it through the registry's union of entries).
 */
export const collectionSchemas: {
  [C in CollectionName]: { v1: ListQuerySchema<V1Query<C>>; console: ListQuerySchema<ConsoleQuery<C>>; input: z.ZodType<CollectionItem<C>, unknown> };
} = {
  endpoints: { v1: collections.endpoints.v1Query, console: collections.endpoints.consoleQuery, input: collections.endpoints.input },
  remediationTargets: {
    v1: collections.remediationTargets.v1Query,
    console: collections.remediationTargets.consoleQuery,
    input: collections.remediationTargets.input,
  },
  scopes: { v1: collections.scopes.v1Query, console: collections.scopes.consoleQuery, input: collections.scopes.input },
  findings: { v1: collections.findings.v1Query, console: collections.findings.consoleQuery, input: collections.findings.input },
};
