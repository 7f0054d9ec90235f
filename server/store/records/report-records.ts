import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { ReportSummary, ReportTemplate } from '../../../contracts/console/reports.js';
import type { RecordWrite, SettledRecordWrite } from '../derived/change-kinds.js';
import type { Database } from '../engine/database.js';

/** A report as it is kept: made once, never recomputed (issue 40, "frozen"). */
export interface StoredReport {
  summary: ReportSummary;
  html: Buffer;
  /** The figures as JSON text, exactly as they were made (contracts/console/reports.ts `ReportFigures`). */
  figures: string;
  /** The detached CMS signature of `html`, DER. */
  signature: Buffer;
}

/** A report to keep, under the organization of `orgRowId` (its first section's). */
export interface NewReport extends StoredReport {
  orgRowId: number;
}

interface SummaryRow {
  uuid: string;
  template: ReportTemplate;
  filter: string;
  created_at: string;
  organizations: string;
  signer: string;
  sha256: string;
}

const summaryColumns = 'uuid, template, filter, created_at, organizations, signer, sha256';

/** zlib's gzip and gunzip on its thread pool: megabytes of a report are never (de)compressed on the server's thread. */
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * How a report's HTML and figures are kept: `gzip` for every report made now, `identity` for those
 * made before. Kept as they were (6 MiB on `large`), one statement bound and wrote them in the
 * report's last turn: 136 ms, the slowest `/health` wait of a technical report
 * (docs/decisions/reports/a-technical-report-holds-no-turn-and-reads-one-version.md).
 */
type ContentEncoding = 'identity' | 'gzip';

/** A kept HTML or figures column as its bytes, however it was kept. */
async function decoded(value: Uint8Array | string, encoding: ContentEncoding): Promise<Buffer> {
  // Copied out of sql.js's memory at once: a later statement may reuse it while zlib reads.
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
  return encoding === 'gzip' ? gunzip(bytes) : bytes;
}

/**
 * A report covers the organization (`?`, twice) it is kept under and every other it has a section
 * of: each section keeps its open findings, at least the part 0 (report-findings.ts), so the part
 * 0 of the organization is the mark of its section, found by the parts' primary key.
 */
const coversOrganization = '(org_id = ? OR EXISTS (SELECT 1 FROM report_findings WHERE report_uuid = reports.uuid AND org_id = ? AND part = 0))';

function toSummary(row: SummaryRow): ReportSummary {
  return {
    id: row.uuid,
    template: row.template,
    filter: row.filter,
    created_at: row.created_at,
    organizations: JSON.parse(row.organizations) as string[],
    signer: row.signer,
    sha256: row.sha256,
  };
}

/**
 * The SQL of the reports table: each report's HTML, figures and signature, written once in a
 * write of the `reports` kind and never changed; removed with its organization.
 */
export class ReportRecords {
  /**
   * @param write a durable write (the report itself)
   * @param held a write a crash may lose (a part of a report's findings): the report's durable
   *   write after its parts keeps them too, and one disk sync per part cost a second a report
   * @param settled a write that resolves once durable, fsynced off the thread (the report: its
   *   megabytes of HTML and figures logged and fsynced at once held the thread over 100 ms)
   */
  constructor(
    private readonly db: Database,
    private readonly write: RecordWrite,
    private readonly held: RecordWrite,
    private readonly settled: SettledRecordWrite,
  ) {}

  /** Keeps a report, its HTML and figures compressed: resolves once it is durable. */
  async insert(report: NewReport): Promise<void> {
    const { summary } = report;
    const [html, figures] = await Promise.all([gzip(report.html), gzip(Buffer.from(report.figures))]);
    await this.settled(['reports'], () =>
      this.db.run(
        `INSERT INTO reports (uuid, org_id, organizations, template, filter, created_at, html, figures, signature, signer, sha256, encoding)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'gzip')`,
        [
          summary.id,
          report.orgRowId,
          JSON.stringify(summary.organizations),
          summary.template,
          summary.filter,
          summary.created_at,
          html,
          figures,
          report.signature,
          summary.signer,
          summary.sha256,
        ],
      ),
    );
  }

  /** The reports that cover the organization (kept under it, or with a section of it), newest first. */
  list(orgRowId: number): ReportSummary[] {
    return this.db.all<SummaryRow>(`SELECT ${summaryColumns} FROM reports WHERE ${coversOrganization} ORDER BY id DESC`, [orgRowId, orgRowId]).map(toSummary);
  }

  /** The ids of the organization's technical reports: those with appendix files beside the store. */
  technicalIds(orgRowId: number): string[] {
    return this.db.all<{ uuid: string }>("SELECT uuid FROM reports WHERE org_id = ? AND template = 'technical'", [orgRowId]).map((row) => row.uuid);
  }

  /** Whether a report of this id is kept, of any organization. */
  has(id: string): boolean {
    return this.db.value('SELECT 1 FROM reports WHERE uuid = ?', [id]) !== undefined;
  }

  /** One of the reports that cover the organization, whole; undefined for an id it has none of. */
  async get(orgRowId: number, id: string): Promise<StoredReport | undefined> {
    const row = this.db.get<SummaryRow & { html: Uint8Array; figures: Uint8Array | string; signature: Uint8Array; encoding: ContentEncoding }>(
      `SELECT ${summaryColumns}, html, figures, signature, encoding FROM reports WHERE uuid = ? AND ${coversOrganization}`,
      [id, orgRowId, orgRowId],
    );
    if (!row) return undefined;
    const summary = toSummary(row);
    const signature = Buffer.from(row.signature);
    const [html, figures] = await Promise.all([decoded(row.html, row.encoding), decoded(row.figures, row.encoding)]);
    return { summary, html, figures: figures.toString('utf8'), signature };
  }

  /**
   * Keeps one part of the open findings a report's section counted, as lines of
   * {@link findingLine}: written before the report, a part a write, so that no write holds the
   * thread for a million ids.
   */
  insertFindings(reportId: string, orgRowId: number, part: number, lines: string): void {
    this.held(['reports'], () => this.db.run('INSERT INTO report_findings (report_uuid, org_id, part, lines) VALUES (?, ?, ?, ?)', [reportId, orgRowId, part, lines]));
  }

  /** Drops the parts of a report that could not be made. */
  dropFindings(reportId: string): void {
    this.write(['reports'], () => this.db.run('DELETE FROM report_findings WHERE report_uuid = ?', [reportId]));
  }

  /**
   * Drops the findings parts of every report the store does not keep: those a report wrote for
   * itself before the process died while it was being made (its parts are written before the
   * report, and dropped when it fails), or those of another organization's section left by the
   * removal of the organization the report was kept under. Called at a writable open, before any
   * report is made; writes nothing when there are none.
   * @returns how many reports' parts were dropped
   */
  dropUnkeptFindings(): number {
    const unkept: string[] = [];
    // One seek of the parts' primary key per report, not a scan of every part.
    for (let after = ''; ; ) {
      const next = this.db.value('SELECT MIN(report_uuid) FROM report_findings WHERE report_uuid > ?', [after]);
      if (typeof next !== 'string') break;
      if (!this.has(next)) unkept.push(next);
      after = next;
    }
    if (unkept.length > 0) this.write(['reports'], () => unkept.forEach((id) => this.db.run('DELETE FROM report_findings WHERE report_uuid = ?', [id])));
    return unkept.length;
  }

  /** The parts of the open findings a report's section of the organization counted, in order. */
  *findings(reportId: string, orgRowId: number): Generator<string> {
    const parts = this.db.all<{ part: number }>('SELECT part FROM report_findings WHERE report_uuid = ? AND org_id = ? ORDER BY part', [reportId, orgRowId]);
    for (const { part } of parts) {
      yield this.db.get<{ lines: string }>('SELECT lines FROM report_findings WHERE report_uuid = ? AND org_id = ? AND part = ?', [reportId, orgRowId, part])!.lines;
    }
  }

  /** The figures (JSON text) of the newest report of the same organizations, template and filter: what a new one's delta compares with. */
  async previousFigures(orgRowId: number, key: { template: ReportTemplate; filter: string; organizations: readonly string[] }): Promise<string | undefined> {
    const row = this.db.get<{ figures: Uint8Array | string; encoding: ContentEncoding }>(
      'SELECT figures, encoding FROM reports WHERE org_id = ? AND template = ? AND filter = ? AND organizations = ? ORDER BY id DESC LIMIT 1',
      [orgRowId, key.template, key.filter, JSON.stringify(key.organizations)],
    );
    return row && (await decoded(row.figures, row.encoding)).toString('utf8');
  }
}
