import { tagKey } from '../../../contracts/console/endpoint-context.js';
import { defaultEndpointCriticality } from '../../../contracts/enums.js';
import { type FixBySettingsValues, type KnownInput, missionOfCriticality } from '../../../contracts/fix-by.js';
import type { Exploitation, MissionImpact, TechnicalImpact, YesNo } from '../../../contracts/ssvc-tables.js';
import type { EffectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import type { EndpointColumns } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import type { CveIntel } from '../intel/cve-intel.js';
import { cveKey } from '../intel/cve-key.js';
import type { TimeSlices } from '../derived/time-slices.js';

/** A CVE's inputs: its KEV listing in an imported catalog (else the finding's remote flag says), and CISA's ADP values. */
export interface CveInputs {
  /** Listed by an imported catalog: yes, with its source and date added; undefined: the remote's `is_kev` says. */
  listed: KnownInput<YesNo> | undefined;
  /** CISA's KEV due date (YYYY-MM-DD), for the `kev-due-date` policy; null where no CISA entry gives one. */
  kevDueDate: string | null;
  automatable: KnownInput<YesNo>;
  technicalImpact: KnownInput<TechnicalImpact>;
  exploitation: KnownInput<Exploitation>;
}

/** An endpoint's inputs: publicly exposed (by the exposure tags) and its mission impact (by its criticality). */
export interface EndpointInputs {
  exposed: KnownInput<YesNo>;
  mission: KnownInput<MissionImpact>;
}

/** What every finding's inputs are read from, at one version of the inventory, the context and the intelligence. */
export interface FixByInputs {
  /** Per cves row id; undefined where no row has the id. */
  cves: (CveInputs | undefined)[];
  /** What a CVE no catalog lists reads as, by the remote's flag. */
  notListed: { yes: KnownInput<YesNo>; no: KnownInput<YesNo> };
  /** Per endpoint key of the coverage columns. */
  endpoints: EndpointInputs[];
  /** A finding that names no endpoint. */
  noEndpoint: EndpointInputs;
  /** The endpoint key of an endpoint id (lower case). */
  endpointKey: Map<string, number>;
  /** The cves row id of an upper-case CVE id. */
  refOf: Map<string, number>;
}

const day = (iso: string) => iso.slice(0, 10);
/** CVEs or endpoints read between two looks at the clock: a few ms of strings each on a loaded machine. */
const rowsBetweenLooks = 1_024;

/** The imported KEV catalogs that are current, as a path names them: `CISA 2025.08.25`, `ENISA EU KEV of 2026-08-17`. */
function catalogNames(db: Database): { cisa?: string; eu?: string } {
  const rows = db.all<{ kind: string; version: string | null; source_date: string }>("SELECT kind, version, source_date FROM intel_imports WHERE current = 1 AND kind IN ('cisa-kev', 'eu-kev')");
  const names: { cisa?: string; eu?: string } = {};
  for (const row of rows) {
    if (row.kind === 'cisa-kev') names.cisa = `CISA ${row.version ?? day(row.source_date)}`;
    else names.eu = `ENISA EU KEV of ${day(row.source_date)}`;
  }
  return names;
}

/**
 * Reads every input the fix-by rules take (contracts/fix-by.ts) for an organization: per CVE
 * its KEV listing (the imported catalogs, else the remote's flag per finding) and CISA's ADP
 * values (Vulnrichment), per endpoint whether a tag of `settings.exposure_tags` is on it (set,
 * or from a rule: the rule's note names it, and its last edit dates it) and its criticality.
 */
export async function readFixByInputs(
  db: Database,
  intel: CveIntel,
  endpoints: EndpointColumns,
  context: EffectiveEndpointContext,
  settings: FixBySettingsValues,
  slices: TimeSlices,
): Promise<FixByInputs> {
  const catalogs = catalogNames(db);
  const catalogText = [catalogs.cisa, catalogs.eu].filter(Boolean).join(', ');
  const size = [...intel.refOf.values()].reduce((max, ref) => Math.max(max, ref), -1) + 1;
  const cves: (CveInputs | undefined)[] = new Array(size);
  const keys = new Map<number, number>();
  for (const [cveId, ref] of intel.refOf) {
    const key = cveKey(cveId);
    if (key !== undefined) keys.set(key, ref);
  }
  const adp = db.all<{ cve_key: number; exploitation: Exploitation; automatable: YesNo; technical_impact: TechnicalImpact; timestamp: string }>(
    'SELECT cve_key, exploitation, automatable, technical_impact, timestamp FROM vulnrichment WHERE cve_key IN (SELECT value FROM json_each(?))',
    [JSON.stringify([...keys.keys()])],
  );
  const adpOf = new Map(adp.map((row) => [keys.get(row.cve_key)!, row]));
  await slices.pause();
  let read = 0;
  for (const ref of intel.refOf.values()) {
    if (++read % rowsBetweenLooks === 0) await slices.pause();
    const listing = intel.kev.get(ref);
    const record = adpOf.get(ref);
    const adpSource = record && `CISA ADP, ${day(record.timestamp)}`;
    const fromAdp = <V extends string>(value: V | undefined): KnownInput<V> =>
      record ? { value, source: adpSource!, since: day(record.timestamp) } : { value: undefined, source: 'no Vulnrichment record', since: null };
    const listedBy = listing && listing.sources.map((source) => (source === 'cisa' ? catalogs.cisa : catalogs.eu) ?? (source === 'cisa' ? 'CISA KEV' : 'ENISA EU KEV')).join(', ');
    cves[ref] = {
      listed: listing && { value: 'yes', source: `${listedBy}, added ${listing.date_added}`, since: listing.date_added },
      kevDueDate: listing?.due_date ?? null,
      automatable: fromAdp(record?.automatable),
      technicalImpact: fromAdp(record?.technical_impact),
      exploitation: fromAdp(record?.exploitation),
    };
  }
  const notListed = {
    yes: { value: 'yes', source: catalogText ? `the remote's is_kev (not in ${catalogText})` : "the remote's is_kev", since: null },
    no: { value: 'no', source: catalogText ? `not in ${catalogText}` : "the remote's is_kev (no KEV catalog imported)", since: null },
  } as const;
  const exposureTags = new Set(settings.exposure_tags.map(tagKey));
  const rules = new Map(context.rules.map((rule) => [rule.id, rule]));
  const exposedOf = (id: string): KnownInput<YesNo> => {
    if (exposureTags.size === 0) return { value: undefined, source: 'no exposure tag set for the organization', since: null };
    const tag = context.tagsOf(id).find((entry) => exposureTags.has(tagKey(entry.tag)));
    if (!tag) return { value: 'no', source: `no tag ${settings.exposure_tags.join(' or ')}`, since: null };
    const explicit = tag.sources.find((source) => source.kind === 'explicit');
    if (explicit) return { value: 'yes', source: `tag ${tag.tag}, set on the endpoint`, since: null };
    const rule = tag.sources[0]!.kind === 'rule' ? rules.get(tag.sources[0]!.rule_id) : undefined;
    return { value: 'yes', source: `tag ${tag.tag}, from rule '${rule?.note || rule?.id}'`, since: rule ? day(rule.updated_at) : null };
  };
  const endpointInputs: EndpointInputs[] = [];
  const endpointKey = new Map<string, number>();
  for (const [key, id] of endpoints.id.entries()) {
    if (key % rowsBetweenLooks === rowsBetweenLooks - 1) await slices.pause();
    const criticality = context.criticalityOf(id);
    // `normal` is never stored: it is the criticality of an endpoint nobody set one on.
    const source = `criticality ${criticality}${criticality === defaultEndpointCriticality ? ' (not set)' : ''}`;
    endpointInputs.push({ exposed: exposedOf(id), mission: { value: missionOfCriticality[criticality], source, since: null } });
    endpointKey.set(id.toLowerCase(), key);
  }
  const noEndpoint: EndpointInputs = {
    exposed: { value: undefined, source: 'the finding names no endpoint', since: null },
    mission: { value: undefined, source: 'the finding names no endpoint', since: null },
  };
  return { cves, notListed, endpoints: endpointInputs, noEndpoint, endpointKey, refOf: intel.refOf };
}
