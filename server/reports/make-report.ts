/**
 * Making a report (issue 40): the figures of each organization for the filter, the HTML drawn
 * from them, one detached CMS signature by every organization's signing identity (a SignerInfo
 * each, the first organization's first), all kept frozen in the store. A report is never
 * computed again: reading one answers what was kept.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { ReportFigures, ReportSection, ReportTemplate } from '../../contracts/console/reports.js';
import type { SignerPems, signCms as signCmsType } from '../agent-config/cms-signer.js';
import { ensureSigner } from '../organizations/manage-organizations.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Organization } from '../store/records/organization-records.js';
import type { StoredReport } from '../store/records/report-records.js';
import type { Store } from '../store/store.js';
import { consoleItems } from '../store/console/console-items.js';
import { OneVersion } from '../store/derived/one-version.js';
import { nextTurn } from '../store/engine/next-turn.js';
import { executiveReportHtml } from './executive-report-html.js';
import { type ReportSource, reportFilter } from './report-filter.js';
import { type SectionFindings, findingParts, readFindingParts, reportSlices } from './report-findings.js';
import { type DeltaBase, reportSection } from './report-figures.js';
import { SyncDeltaError, syncSpan } from './sync-delta.js';
import { ReportMovedError, appendixPaths, writeAppendix } from './report-appendix.js';
import { reportSigner } from './report-signers.js';
import { technicalParts } from './technical-report.js';
import { technicalReportHtml } from './technical-report-html.js';

/** How a report is made, beside what it is made of. */
export interface MakeReportOptions {
  template: ReportTemplate;
  /** The product's version, which the footer names. */
  productVersion: string;
  /** Where technical reports' appendices are kept (report-appendix.ts); a technical report needs it. */
  appendixFolder?: string;
  /** Two recorded syncs of the (one) organization, older first: the delta is taken between them rather than against the previous report. */
  compareSyncs?: readonly [number, number];
}

/**
 * Makes, signs and keeps a report of `organizations` (one section each, in order; the report is
 * kept under the first, and signed by each) for `source`.
 * @throws ReportFilterError for a filter the findings list would refuse (nothing is kept)
 * @throws SyncDeltaError for syncs no delta is taken between, or syncs asked of several organizations (nothing is kept)
 * @throws ReportMovedError when the findings' data is written between its first read and its last (nothing is kept)
 */
export async function makeReport(store: Store, sealer: Sealer, organizations: readonly Organization[], source: ReportSource, options: MakeReportOptions): Promise<StoredReport> {
  const owner = organizations[0];
  if (!owner) throw new Error('A report needs at least one organization');
  // One version of what the findings show from the report's first read to its last: a write
  // meanwhile (a sync, an exception, a tag) would mix figures of one with an appendix of another.
  const version = new OneVersion(store.changes, [consoleItems]);
  // Loaded while the figures are read (`serve` starts without the signing modules): the signer
  // alone, whose first load turns at most 17 ms, not agent-config's index with its file writers
  // (309 ms, one turn of 124 ms).
  const signing = import('../agent-config/cms-signer.js');
  signing.catch(() => undefined);
  const filter = reportFilter(source, store.savedViews.list(owner.rowId));
  if (options.compareSyncs && organizations.length > 1) throw new SyncDeltaError('A delta between two syncs is of one organization: name only one');
  const syncs = options.compareSyncs && syncSpan(store, owner.rowId, options.compareSyncs);
  const asOf = store.deadlines.asOf();
  const slugs = organizations.map((organization) => organization.slug);
  const previousText = syncs ? undefined : await store.reports.previousFigures(owner.rowId, { template: options.template, filter: filter.text, organizations: slugs });
  // Figures this store wrote itself, with the schema of this version: read as they are (a zod parse of a million ids would hold the thread).
  const previous = previousText === undefined ? undefined : (JSON.parse(previousText) as ReportFigures);
  const id = randomUUID();
  const sections: ReportSection[] = [];
  const appendixFiles = options.template === 'technical' ? appendixPaths(requiredAppendixFolder(options), id) : undefined;
  try {
    for (const organization of organizations) {
      const base: DeltaBase | undefined = syncs
        ? { syncs }
        : previous && previous.sections.some((section) => section.organization.id === organization.id)
          ? { previousReport: { id: previous.id, created_at: previous.created_at, findings: await readFindingParts(store.reports.findings(previous.id, organization.rowId)) } }
          : undefined;
      const { section, findings } = await reportSection(store, organization, filter, asOf, base);
      // Kept at once, unlisted until the report is: its million ids are not held through the other sections and the appendix.
      await keepFindings(store, id, organization, findings);
      if (options.template === 'technical') section.technical = await technicalParts(store, organization, filter, asOf);
      sections.push(section);
    }
    const figures: ReportFigures = {
      id,
      template: options.template,
      filter: filter.text,
      created_at: new Date(store.now()).toISOString(),
      product_version: options.productVersion,
      sections,
    };
    if (appendixFiles) figures.appendix = await writeAppendix(store, organizations, filter, asOf, appendixFiles, version);
    // Its last read done: the report's own writes follow (its signing identity, the report).
    if (!version.current) throw new ReportMovedError();
    return await signAndKeep(store, sealer, organizations, figures, await signing);
  } catch (error) {
    store.reports.dropFindings(id);
    for (const file of Object.values(appendixFiles ?? {})) fs.rmSync(file, { force: true });
    throw error;
  }
}

/**
 * Keeps the open findings a section counted, a part a write with pauses between; the report,
 * kept last, lists them: they are never seen half kept.
 */
async function keepFindings(store: Store, reportId: string, organization: Organization, findings: SectionFindings): Promise<void> {
  const slices = reportSlices();
  let part = 0;
  for (const lines of findingParts(findings)) {
    store.reports.insertFindings(reportId, organization.rowId, part++, lines);
    await slices.pause();
  }
}

/** The folder of appendices a technical report needs. */
function requiredAppendixFolder(options: MakeReportOptions): string {
  if (options.appendixFolder === undefined) throw new Error('A technical report needs a folder for its appendix');
  return options.appendixFolder;
}

/** Draws, signs and keeps a report of `figures`, whose sections' findings are kept already. */
async function signAndKeep(
  store: Store,
  sealer: Sealer,
  organizations: readonly Organization[],
  figures: ReportFigures,
  { signCms }: { signCms: typeof signCmsType },
): Promise<StoredReport> {
  const owner = organizations[0]!;
  const slugs = figures.sections.map((section) => section.organization.slug);
  // An organization named twice signs once: CMS verifiers refuse a certificate that signs twice.
  const signing = organizations.filter((organization, index) => organizations.findIndex((other) => other.rowId === organization.rowId) === index);
  const signerPems: SignerPems[] = [];
  for (const organization of signing) signerPems.push(await ensureSigner(store, sealer, organization));
  const signers = signerPems.map((pems, index) => reportSigner(signing[index]!.slug, pems.certificatePem));
  // A turn between the steps, each short but together long on `large` (the HTML and the figures
  // are megabytes): an await of a settled promise gives none.
  await nextTurn();
  const html = Buffer.from(figures.template === 'technical' ? technicalReportHtml(figures, signers) : executiveReportHtml(figures, signers));
  await nextTurn();
  const signature = await signCms(html, signerPems, { detached: true, signingTime: new Date(figures.created_at) });
  await nextTurn();
  // The figures' text (4 MiB on `large`) made in a turn of its own, before the report's write.
  const figuresText = JSON.stringify(figures);
  await nextTurn();
  const report: StoredReport = {
    summary: {
      id: figures.id,
      template: figures.template,
      filter: figures.filter,
      created_at: figures.created_at,
      organizations: slugs,
      signer: signers.map((signer) => signer.subject).join('; '),
      sha256: createHash('sha256').update(html).digest('hex'),
    },
    html,
    figures: figuresText,
    signature,
  };
  // Its pages and its findings parts' logged in slices and fsynced off this thread.
  await store.reports.insert({ ...report, orgRowId: owner.rowId });
  return report;
}
