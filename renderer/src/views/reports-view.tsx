import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../api/console-fetch';
import { reportFilePath, reportsQuery, useCreateReport } from '../api/report-queries';
import { FileExportButton, SaveButton } from '../components/file-export-button';
import { QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatDateTime } from '../lib/format';
import { reportPdfSaver } from '../lib/save-download';

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
  const filterId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(filter.trim());
  };

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Reports</h1>
      </header>
      <p className="hint">
        An executive report of a filter of the findings list, signed with the organization&apos;s signing identity and kept as it was made.{' '}
        {savePdf ? 'Save as PDF prints it offline' : 'Print it'} for a PDF; <code>remediation-console verify FILE</code> checks a saved copy against its
        signature.
      </p>
      <form className="inline-form" aria-label="Make a report" onSubmit={submit}>
        <label htmlFor={filterId}>Filter</label>
        <input id={filterId} value={filter} maxLength={2048} placeholder="tag=internet-facing&criticality=critical" onChange={(event) => setFilter(event.target.value)} />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Making report…' : 'Make report'}
        </button>
      </form>
      {create.isError ? <p role="alert">{errorMessage(create.error, 'The report could not be made.')}</p> : null}
      <QueryFrame query={reports} what="reports" empty={(data) => data.length === 0 && 'No report yet: make one above, or with Report on the findings list.'}>
        {(data) => (
          <table className="plain-table">
            <caption className="visually-hidden">Reports</caption>
            <TableHead columns={['Made', 'Filter', 'Organizations', 'Signed by']} actions />
            <tbody>
              {data.map((report) => (
                <tr key={report.id}>
                  <td>{formatDateTime(report.created_at)}</td>
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
