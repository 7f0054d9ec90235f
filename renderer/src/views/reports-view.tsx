import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../api/console-fetch';
import type { ReportTemplate } from '../../../contracts/console/reports';
import type { ConsoleOrganization } from '../../../contracts/console/organizations';
import type { SyncChanges } from '../../../contracts/console/sync-changes';
import { organizationsQuery } from '../api/console-queries';
import { reportFilePath, reportsQuery, useCreateReport } from '../api/report-queries';
import { syncChangesQuery } from '../api/sync-changes-queries';
import { FileExportButton, SaveButton } from '../components/file-export-button';
import { QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatDateTime } from '../lib/format';
import { reportPdfSaver } from '../lib/save-download';

/** The templates' names in the form and the list: every template, as the contract's type requires. */
const templateLabels: Record<ReportTemplate, string> = { executive: 'Executive', technical: 'Technical' };

/** A recorded sync as the selects name it. */
const syncLabel = (sync: SyncChanges) => `sync ${sync.id}, ${formatDateTime(sync.finishedAt)}`;

/**
 * The syncs a delta can start from (newest first): each whose later syncs all kept the findings
 * they moved, for the server refuses a span across one that did not; the newest is none's start.
 */
function startingSyncs(syncs: readonly SyncChanges[]): SyncChanges[] {
  const starts: SyncChanges[] = [];
  for (let i = 1; i < syncs.length && syncs[i - 1]!.findingsKept; i++) starts.push(syncs[i]!);
  return starts;
}

/**
 * What a report's delta compares, for a replica: the previous report of its filter, or two of its
 * recorded syncs (from one, until a newer one: the newest unless another is chosen).
 */
function CompareWith({ syncs, from, until, onFrom, onUntil }: { syncs: readonly SyncChanges[]; from: string; until: string; onFrom: (id: string) => void; onUntil: (id: string) => void }) {
  const fromId = useId();
  const untilId = useId();
  const start = syncs.find((sync) => String(sync.id) === from);
  return (
    <>
      <label htmlFor={fromId}>Compared with</label>
      <select id={fromId} value={start ? from : ''} onChange={(event) => onFrom(event.target.value)}>
        <option value="">the previous report of this filter</option>
        {startingSyncs(syncs).map((sync) => (
          <option key={sync.id} value={String(sync.id)}>
            {syncLabel(sync)}
          </option>
        ))}
      </select>
      {start ? (
        <>
          <label htmlFor={untilId}>until</label>
          <select id={untilId} value={until} onChange={(event) => onUntil(event.target.value)}>
            {syncs
              .filter((sync) => sync.id > start.id)
              .map((sync) => (
                <option key={sync.id} value={String(sync.id)}>
                  {syncLabel(sync)}
                </option>
              ))}
          </select>
        </>
      ) : null}
    </>
  );
}

/**
 * The other organizations a report can have a section of, each signing it too (the report is kept
 * under this one, whose section comes first).
 */
function OtherOrganizations({ organizations, chosen, onChange }: { organizations: readonly ConsoleOrganization[]; chosen: readonly string[]; onChange: (slugs: string[]) => void }) {
  return (
    <fieldset className="inline-fieldset">
      <legend>With the sections of</legend>
      {organizations.map((organization) => (
        <label key={organization.slug}>
          <input
            type="checkbox"
            checked={chosen.includes(organization.slug)}
            onChange={(event) => onChange(event.target.checked ? [...chosen, organization.slug] : chosen.filter((slug) => slug !== organization.slug))}
          />{' '}
          {organization.name}
        </label>
      ))}
    </fieldset>
  );
}

/** Opens a report in a window of its own and asks the browser to print it: its print stylesheet makes the PDF's pages. */
function printReport(path: string): void {
  const opened = window.open(path, '_blank');
  opened?.addEventListener('load', () => opened.print(), { once: true });
}

/**
 * The organization's reports: made from a filter of the findings list (here, or with the list's
 * Report button), each kept as it was made and signed; opened, saved as PDF by the desktop app
 * (else printed: the browser's PDF), saved with its signature.
 */
export function ReportsView({ slug }: { slug: string }) {
  const reports = useQuery(reportsQuery(slug));
  const savePdf = reportPdfSaver();
  const create = useCreateReport(slug);
  const [filter, setFilter] = useState('');
  const [template, setTemplate] = useState<ReportTemplate>('executive');
  const [compareFrom, setCompareFrom] = useState('');
  const [compareUntil, setCompareUntil] = useState('');
  const [withOthers, setWithOthers] = useState<string[]>([]);
  const filterId = useId();
  const templateId = useId();
  const organizations = useQuery(organizationsQuery());
  const replica = organizations.data?.find((o) => o.slug === slug)?.kind === 'replica';
  const others = organizations.data?.filter((o) => o.slug !== slug) ?? [];
  // The others checked, while the list still names them: in the list's order, after this one.
  const sections = others.filter((o) => withOthers.includes(o.slug)).map((o) => o.slug);
  const syncs = useQuery({ ...syncChangesQuery(slug), enabled: replica });
  // The chosen syncs, while the list still holds them (the newest as the end unless another, newer than the start, is chosen).
  const recorded = syncs.data ?? [];
  const from = startingSyncs(recorded).find((sync) => String(sync.id) === compareFrom);
  const until = from && (recorded.find((sync) => String(sync.id) === compareUntil && sync.id > from.id) ?? recorded[0]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      filter: filter.trim(),
      template,
      compareSyncs: from && until && sections.length === 0 ? [from.id, until.id] : undefined,
      organizations: sections.length > 0 ? [slug, ...sections] : undefined,
    });
  };

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Reports</h1>
      </header>
      <p className="hint">
        A report of a filter of the findings list, signed with the organization&apos;s signing identity and kept as it was made: executive (the
        figures, the plan&apos;s top steps, the change since the last one, or, for a replica, between two of its syncs), or technical (the same, each plan step with its endpoints, the scopes&apos;
        coverage, and an appendix of every finding as CSV and JSON, whose hashes the signed report states).{' '}
        {savePdf ? 'Save as PDF prints it offline' : 'Print it'} for a PDF; <code>remediation-console verify FILE</code> checks a saved copy against its
        signature, and its appendix beside it.
      </p>
      <form className="inline-form" aria-label="Make a report" onSubmit={submit}>
        <label htmlFor={filterId}>Filter</label>
        <input id={filterId} value={filter} maxLength={2048} placeholder="tag=internet-facing&criticality=critical" onChange={(event) => setFilter(event.target.value)} />
        <label htmlFor={templateId}>Template</label>
        <select id={templateId} value={template} onChange={(event) => setTemplate(event.target.value as ReportTemplate)}>
          {(Object.keys(templateLabels) as ReportTemplate[]).map((name) => (
            <option key={name} value={name}>
              {templateLabels[name]}
            </option>
          ))}
        </select>
        {others.length > 0 ? <OtherOrganizations organizations={others} chosen={sections} onChange={setWithOthers} /> : null}
        {/* A delta between syncs is of one organization's syncs: a report of several compares each with its previous report. */}
        {replica && recorded.length > 1 && sections.length === 0 ? (
          <CompareWith syncs={recorded} from={from ? compareFrom : ''} until={until ? String(until.id) : ''} onFrom={setCompareFrom} onUntil={setCompareUntil} />
        ) : null}
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Making report…' : 'Make report'}
        </button>
      </form>
      {create.isError ? <p role="alert">{errorMessage(create.error, 'The report could not be made.')}</p> : null}
      <QueryFrame query={reports} what="reports" empty={(data) => data.length === 0 && 'No report yet: make one above, or with Report on the findings list.'}>
        {(data) => (
          <table className="plain-table">
            <caption className="visually-hidden">Reports</caption>
            <TableHead columns={['Made', 'Template', 'Filter', 'Organizations', 'Signed by']} actions />
            <tbody>
              {data.map((report) => (
                <tr key={report.id}>
                  <td>{formatDateTime(report.created_at)}</td>
                  <td>{templateLabels[report.template]}</td>
                  <td>{report.filter ? <code>{report.filter}</code> : 'every finding'}</td>
                  <td>{report.organizations.join(', ')}</td>
                  <td>{report.signer}</td>
                  <td className="actions">
                    <a href={reportFilePath(slug, report.id)} target="_blank" rel="noopener">
                      Open
                    </a>{' '}
                    {savePdf ? (
                      <SaveButton label="Save as PDF" save={() => savePdf({ path: reportFilePath(slug, report.id), suggestedName: `report-${report.id}.pdf` })} />
                    ) : (
                      <button type="button" onClick={() => printReport(reportFilePath(slug, report.id))}>
                        Print
                      </button>
                    )}{' '}
                    <FileExportButton label="Save" path={reportFilePath(slug, report.id)} suggestedName={`report-${report.id}.html`} filter={{ name: 'HTML', extensions: ['html'] }} />{' '}
                    <FileExportButton
                      label="Save signature"
                      path={reportFilePath(slug, report.id, 'p7s')}
                      suggestedName={`report-${report.id}.html.p7s`}
                      filter={{ name: 'CMS signature', extensions: ['p7s'] }}
                    />
                    {report.template === 'technical' ? (
                      <>
                        {' '}
                        <FileExportButton
                          label="Save appendix (CSV)"
                          path={reportFilePath(slug, report.id, 'appendix-csv')}
                          suggestedName={`report-${report.id}.html.findings.csv`}
                          filter={{ name: 'CSV', extensions: ['csv'] }}
                        />{' '}
                        <FileExportButton
                          label="Save appendix (JSON)"
                          path={reportFilePath(slug, report.id, 'appendix-json')}
                          suggestedName={`report-${report.id}.html.findings.json`}
                          filter={{ name: 'JSON', extensions: ['json'] }}
                        />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryFrame>
    </section>
  );
}
