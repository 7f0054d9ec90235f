import type { ThreatIntelImport } from '../../../contracts/console/threat-intel';
import { TableHead, figureColumns } from '../components/table-head';
import { formatCount, formatDateTime, orDash } from '../lib/format';
import { intelKindLabels } from './intel-labels';

/** An import's state: its figures current, kept as history, or interrupted (import the file again). */
function stateOf(record: ThreatIntelImport): string {
  if (!record.finished) return 'Interrupted: import the file again';
  return record.current ? 'Current' : 'History';
}

/**
 * The current EPSS import's model and the one of the import before it (by score date), when
 * they differ: scores of different models are not comparable.
 */
export function epssModelChange(imports: ThreatIntelImport[]): { from: string | null; to: string | null; date: string } | undefined {
  const epss = imports.filter((record) => record.kind === 'epss' && record.finished).sort((a, b) => b.source_date.localeCompare(a.source_date) || b.id - a.id);
  const [current, previous] = epss;
  if (!current || !previous || current.version === previous.version) return undefined;
  return { from: previous.version, to: current.version, date: current.source_date };
}

/** Every import, newest first: kind, the file's date and version, rows, SHA-256, when imported and whether current. */
export function IntelImportsTable({ imports }: { imports: ThreatIntelImport[] }) {
  return (
    <table className="plain-table intel-imports">
      <caption className="visually-hidden">Imports of intelligence files</caption>
      <TableHead columns={['Kind', "File's date", 'Version', ...figureColumns(['Rows']), 'SHA-256', 'Imported', 'State']} />
      <tbody>
        {imports.map((record) => (
          <tr key={record.id}>
            <td>{intelKindLabels[record.kind]}</td>
            <td>{formatDateTime(record.source_date)}</td>
            <td>{orDash(record.version)}</td>
            <td className="num">{formatCount(record.rows)}</td>
            <td>
              <code title={record.sha256}>{record.sha256.slice(0, 12)}…</code>
            </td>
            <td>{formatDateTime(record.imported_at)}</td>
            <td>{stateOf(record)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
