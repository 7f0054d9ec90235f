import { createHash } from 'node:crypto';
import type { StillVulnerable, WorkPackage, WorkPackageEdit, WorkPackageEndpoint, WorkPackageQuery } from '../../../contracts/console/work-packages.js';
import { type WorkPackagePriority, workPackageTextBounds } from '../../../contracts/console/work-package-basics.js';
import { findingSeverities, findingStatuses } from '../../../contracts/enums.js';
import { dayMs, dueAtMs } from '../../../contracts/remediation-deadlines.js';
import { counted } from '../../../contracts/figure-text.js';
import type { ExceptedFindingsSource } from '../basics/excepted-findings.js';
import { type EndpointContextSource, type EndpointSelection, selectedEndpointKeys, selectionKey, selects } from '../basics/endpoint-selection.js';
import { softwareId } from '../basics/software-id.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, type RecordWrite, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { VersionMoved, onOneVersion } from '../derived/one-version.js';
import { TimeSlices } from '../derived/time-slices.js';
import { compareSqlValues } from '../derived/sql-value-order.js';
import { type ExposureFigures, type ExposureFiguresCache, exposureFigures } from '../exposure/exposure-figures.js';
import type { SoftwareQueries } from '../exposure/software-queries.js';
import { versionToUpdateToSummary } from '../exposure/version-to-update-to.js';
import { type WorkPackageRecord, WorkPackageRecords } from '../records/work-package-records.js';
import type { DeadlineFigures } from './deadline-figures.js';

// A work package is a plan step with its endpoints and findings: read from what the plan is read from.
const workPackageSets = derivedValue('work packages', ['inventory', 'endpoint-context', 'threat-intel']);
/**
 * The list's answers as written: the packages with what the console keeps of them (owner, note,
 * ticket, the check after a sync) and the exceptions and deadline policy they are counted under.
 */
const workPackageAnswers = derivedValue('work package answers', ['inventory', 'endpoint-context', 'threat-intel', 'work-packages', 'exceptions', 'deadline-policies', 'organizations']);
/** The answers kept: a whole organization's list of a large fleet is about 6 MiB. */
const answerCacheBytes = 32 * 2 ** 20;

/** A work package as computed from the data: what the local records and the clock add is not in it. */
type ComputedPackage = Omit<WorkPackage, 'priority' | 'owner' | 'note' | 'ticket' | 'still_vulnerable'> & {
  dueMs: number | null;
  /** Its endpoints as JSON, written once: the list's answer is mostly these. */
  endpointsJson: string;
};

const open = findingStatuses.indexOf('open');
const critical = findingSeverities.indexOf('critical');
/** Findings tested between two looks at the clock. */
const findingsBetweenLooks = 65_536;

/**
 * The stable external id of a work package: the organization, the product and the version to
 * update it to, hashed (docs/decisions/work-packages/the-external-id-is-a-hash-of-organization-product-and-version.md).
 * Exporting again gives the same id, so that a ticket system updates its ticket rather than adding one.
 */
export function externalIdOf(organizationId: string, vendor: string | null, product: string | null, version: string | null): string {
  return `rc-${createHash('sha256').update(JSON.stringify([organizationId, vendor, product, version])).digest('hex').slice(0, 20)}`;
}

/** highest: a KEV finding or past due; high: a critical finding; medium: due within 30 days; low otherwise. */
function priorityOf(work: ComputedPackage, asOf: number): WorkPackagePriority {
  if (work.findings.kev > 0 || (work.dueMs !== null && work.dueMs < asOf)) return 'highest';
  if (work.findings.by_severity.critical > 0) return 'high';
  return work.dueMs !== null && work.dueMs < asOf + 30 * dayMs ? 'medium' : 'low';
}

/** What a status filter keeps. */
function keptBy(status: WorkPackageQuery['status'], record: WorkPackageRecord | undefined): boolean {
  if (status === undefined) return true;
  if (status === 'not-ticketed') return !record?.ticket;
  if (status === 'still-vulnerable') return record?.ticket?.status === 'done' && record.stillVulnerable !== null;
  return record?.ticket?.status === status;
}

/** "Closed in Jira as PROJ-123 on 2026-12-02, still vulnerable on 7 endpoints." */
function stillVulnerableSentence(record: WorkPackageRecord, endpoints: number): string {
  const ticket = record.ticket!;
  const on = ticket.resolved_at ? ` on ${ticket.resolved_at.slice(0, 10)}` : '';
  return `Closed in ${ticket.system === 'jira' ? 'Jira' : 'ServiceNow'} as ${ticket.key}${on}, still vulnerable on ${counted(endpoints, 'endpoint')}.`;
}

/**
 * The remediation plan's steps as work packages (issue 39): each with the version to update to,
 * its endpoints with their tags and criticality, the findings it closes by severity, KEV and
 * EPSS sum, the earliest due date under the organization's deadline policy and a suggested
 * priority; then what the console keeps of it (owner, note, ticket, the check after a sync).
 * The computed part is kept per version of the data, selection, exceptions and policy; the
 * records and the clock are added at each read.
 */
export class WorkPackages {
  readonly records: WorkPackageRecords;
  /** Packages by organization, excepted findings, selection and deadline policy. Bound: 8. */
  private readonly sets: DerivedCache<ComputedPackage[]>;
  /** The list's JSON by organization, selection, status and minute. Bound: 32 MiB. */
  private readonly answers: DerivedCache<Buffer>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly figures: ExposureFiguresCache,
    private readonly software: SoftwareQueries,
    private readonly deadlines: DeadlineFigures,
    private readonly excepted: ExceptedFindingsSource,
    private readonly context: EndpointContextSource,
    private readonly now: () => number,
    write: RecordWrite,
  ) {
    this.records = new WorkPackageRecords(db, now, write);
    this.sets = new DerivedCache(versions, workPackageSets, { bound: { entries: 8 } });
    this.answers = new DerivedCache(versions, workPackageAnswers, { bound: { weight: answerCacheBytes, weigh: (json) => json.length } });
  }

  /** The organization's work packages in the plan's order, for the plan's filters and a status. */
  async list(orgRowId: number, query: WorkPackageQuery = {}): Promise<WorkPackage[]> {
    return (await this.withRecords(orgRowId, query)).map(({ endpointsJson: _endpointsJson, ...work }) => work);
  }

  /**
   * The same as {@link list}, as the JSON array of the list's answer, kept until a write of what
   * it is read from (a whole organization's list is about 6 MiB, 75 ms to write again at each
   * read): each package's endpoints as written when it was computed, the rest written once a
   * minute, as its priority is of the minute (docs/decisions/work-packages/the-list-answer-is-kept-as-written.md).
   */
  listJson(orgRowId: number, query: WorkPackageQuery = {}): Promise<Buffer> {
    const asOf = this.deadlines.asOf();
    return this.answers.settled(`${orgRowId}|${selectionKey(query)}|${query.status ?? ''}|${asOf}`, async (checkpoint) => {
      const packages = await this.withRecords(orgRowId, query, asOf);
      // A write during the computation (a sync, an import, an edit) is seen by the next read, not kept under this key.
      checkpoint();
      const parts = packages.map(({ endpointsJson, endpoints: _endpoints, ...work }) => `${JSON.stringify(work).slice(0, -1)},"endpoints":${endpointsJson}}`);
      return Buffer.from(`[${parts.join(',')}]`);
    });
  }

  /** The computed packages the query keeps, with what the records and the clock add. */
  private async withRecords(orgRowId: number, query: WorkPackageQuery, asOf = this.deadlines.asOf()): Promise<(WorkPackage & { endpointsJson: string })[]> {
    const computed = await this.computed(orgRowId, query);
    const records = this.records.byExternalId(orgRowId);
    const packages = [];
    for (const work of computed) {
      const record = records.get(work.external_id);
      if (!keptBy(query.status, record)) continue;
      const { dueMs: _dueMs, ...rest } = work;
      packages.push({
        ...rest,
        priority: priorityOf(work, asOf),
        owner: record?.owner ?? '',
        note: record?.note ?? '',
        ticket: record?.ticket ?? null,
        still_vulnerable: record?.ticket?.status === 'done' ? record.stillVulnerable : null,
      });
    }
    return packages;
  }

  /** The organization's step of an external id in the whole plan; undefined when the plan has none. */
  async step(orgRowId: number, externalId: string): Promise<WorkPackage | undefined> {
    return (await this.list(orgRowId)).find((work) => work.external_id === externalId);
  }

  /** Sets a step's owner and note; answers the step, or undefined when the plan has no step of that id. */
  async edit(orgRowId: number, externalId: string, edit: WorkPackageEdit): Promise<WorkPackage | undefined> {
    const step = await this.step(orgRowId, externalId);
    if (!step) return undefined;
    this.records.edit(orgRowId, externalId, step, edit);
    return this.step(orgRowId, externalId);
  }

  /**
   * The check after a sync (issue 39, item 4): each step whose ticket is done and whose product
   * still has open findings the plan counts (critical or KEV, not under an exception) on some
   * endpoints is flagged with them; one that has none is cleared. Answers the steps flagged.
   */
  async checkDone(orgRowId: number): Promise<number> {
    const records = this.records.byExternalId(orgRowId);
    const done = [...records.values()].filter((record) => record.ticket?.status === 'done');
    if (done.length === 0) return 0;
    const figures = await this.figures.of(orgRowId);
    const hostnameOf = hostnames(figures);
    const checkedAt = new Date(this.now()).toISOString();
    const flags = new Map<string, StillVulnerable | null>();
    const flagged = [];
    for (const record of done) {
      const product = figures.productById.get(softwareId([record.vendor, record.product]));
      const keys = product === undefined ? [] : figures.planInput.endpoints[product]!;
      if (keys.length === 0) {
        flags.set(record.externalId, null);
        continue;
      }
      const ids = Array.from(keys, (key) => figures.sortValues.columns.endpoints.id[key]!);
      const names = ids.map((id) => hostnameOf.get(id) ?? id).sort();
      const flag = { endpoints: keys.length, hostnames: names.slice(0, workPackageTextBounds.hostnamesListed), checked_at: checkedAt, sentence: stillVulnerableSentence(record, keys.length) };
      flags.set(record.externalId, flag);
      flagged.push({ external_id: record.externalId, vendor: record.vendor, product: record.product, ticket_key: record.ticket!.key, ...flag });
    }
    this.records.recordCheck(orgRowId, checkedAt, flags, flagged);
    return flagged.length;
  }

  /** The computed packages of the plan for the query's selection, of one version of the data. */
  private computed(orgRowId: number, selection: EndpointSelection): Promise<ComputedPackage[]> {
    const selected = selects(selection) ? { tag: selection.tag, criticality: selection.criticality, osFamily: selection.osFamily } : undefined;
    return onOneVersion(this.versions, [exposureFigures, workPackageSets], async (version) => {
      const figures = await this.figures.of(orgRowId, selected);
      const fleet = selected ? await this.figures.of(orgRowId) : figures;
      if (fleet.products !== figures.products || fleet.exceptedKey !== figures.exceptedKey) throw new VersionMoved();
      const policy = this.deadlines.policies.get(orgRowId);
      return this.sets.settled(`${orgRowId}|${figures.exceptedKey}|${selectionKey(selected)}|${policy.key}`, async (checkpoint) => {
        // Started again after a write, this computation would keep another version's figures under this key.
        version.check();
        const plan = await this.software.plan(orgRowId, selected);
        const timeline = await this.deadlines.timeline(orgRowId);
        const excepted = await this.excepted(orgRowId);
        const context = await this.context(orgRowId);
        checkpoint();
        version.check();
        const { columns } = figures.sortValues;
        if (timeline.columns !== columns || excepted.key !== figures.exceptedKey) throw new VersionMoved();
        const organizationId = this.db.value('SELECT uuid FROM organizations WHERE id = ?', [orgRowId]) as string;
        const stepOfProduct = new Int32Array(figures.products.length).fill(-1);
        plan.steps.forEach((step, index) => (stepOfProduct[figures.productById.get(step.product_id)!] = index));
        // The product of each target kind the columns name (-1: the replica does not hold the target).
        const { kinds } = columns;
        const productOfKind = Int32Array.from(kinds.type, (type, kind) =>
          type === null ? -1 : (figures.productById.get(softwareId([kinds.vendor[kind]!, kinds.product[kind]!])) ?? -1),
        );
        const keep = selected ? selectedEndpointKeys(columns.endpoints, context, selected) : undefined;
        const severities = plan.steps.map(() => new Int32Array(findingSeverities.length));
        const kev = new Int32Array(plan.steps.length);
        const due = new Float64Array(plan.steps.length).fill(Infinity);
        const slices = new TimeSlices(checkpoint);
        // The findings the plan counts (plan input, exposure-figures.ts): open, not excepted, of an endpoint kept, critical or KEV, of a product.
        for (let i = 0; i < columns.count; i++) {
          if (i % findingsBetweenLooks === 0) await slices.pause();
          if (columns.status[i] !== open || excepted.byColumn[i] === 1) continue;
          const severity = columns.severity[i]!;
          const isKev = columns.kev[i] === 1;
          if (severity !== critical && !isKev) continue;
          const endpoint = columns.endpoint[i]!;
          if (keep && (endpoint < 0 || keep[endpoint] !== 1)) continue;
          const target = columns.target[i]!;
          const product = target < 0 ? -1 : productOfKind[columns.targetKind[target]!]!;
          const step = product < 0 ? -1 : stepOfProduct[product]!;
          if (step < 0) continue;
          severities[step]![severity]!++;
          if (isKev) kev[step]!++;
          const dueMs = dueAtMs(policy.policy, findingSeverities[severity]!, isKev, timeline.firstDetectedMs[i]!);
          if (dueMs !== null && dueMs < due[step]!) due[step] = dueMs;
        }
        const hostnameOf = hostnames(figures);
        // One object per endpoint key, shared by the steps it is in: an endpoint of many products is described once.
        const endpointOfKey = new Map<number, WorkPackageEndpoint>();
        const endpointOf = (key: number) => {
          let endpoint = endpointOfKey.get(key);
          if (!endpoint) {
            const id = columns.endpoints.id[key]!;
            endpoint = { endpoint_id: id, hostname: hostnameOf.get(id) ?? null, tags: context.tagsOf(id).map((tag) => tag.tag), criticality: context.criticalityOf(id) };
            endpointOfKey.set(key, endpoint);
          }
          return endpoint;
        };
        // By hostname without ASCII case (the figures' sort names, computed once), then id; unknown hostnames last.
        const { endpointSortName } = figures.sortValues;
        const byHostname = (a: number, b: number) =>
          compareSqlValues(endpointSortName[a] ?? '\uffff', endpointSortName[b] ?? '\uffff') || compareSqlValues(columns.endpoints.id[a]!, columns.endpoints.id[b]!);
        const packages: ComputedPackage[] = [];
        for (const [index, step] of plan.steps.entries()) {
          await slices.pause();
          const product = figures.productById.get(step.product_id)!;
          const updateTo = versionToUpdateToSummary(fleet, product);
          const endpoints = Array.from(figures.planInput.endpoints[product]!).sort(byHostname).map(endpointOf);
          const dueMs = Number.isFinite(due[index]!) ? due[index]! : null;
          packages.push({
            external_id: externalIdOf(organizationId, step.vendor, step.product, updateTo.version),
            step: index + 1,
            product_id: step.product_id,
            vendor: step.vendor,
            product: step.product,
            update_to: updateTo,
            endpoints,
            findings: {
              total: step.closes,
              by_severity: Object.fromEntries(findingSeverities.map((name, s) => [name, severities[index]![s]!])) as WorkPackage['findings']['by_severity'],
              kev: kev[index]!,
              epss_sum: step.epss_sum,
            },
            due_at: dueMs === null ? null : new Date(dueMs).toISOString(),
            dueMs,
            endpointsJson: JSON.stringify(endpoints),
          });
        }
        return packages;
      });
    });
  }
}

/** Each endpoint id's hostname, of the endpoints the replica holds. */
function hostnames(figures: ExposureFigures): Map<string, string> {
  const map = new Map<string, string>();
  figures.endpointIds.forEach((id, number) => {
    const hostname = figures.endpointHostnames[number]?.hostname;
    if (hostname !== undefined) map.set(id, hostname);
  });
  return map;
}
