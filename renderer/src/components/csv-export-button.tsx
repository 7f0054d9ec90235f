import { useRef, useState } from 'react';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { csvExportPath } from '../api/console-queries';
import type { ListFilters } from '../api/list-pages';
import { desktopBridge } from '../desktop-bridge';
import { type SaveOutcome, saveConsoleFile } from '../lib/save-download';
import { csvRecordCounter } from '../lib/csv-row-counter';
import { formatCount, formatCounted } from '../lib/format';

interface CsvExportButtonProps {
  slug: string;
  collection: CollectionName;
  filters: ListFilters;
  total: number | undefined;
}

/** Exports every row of a collection's filtered list as CSV, with progress and a way to stop. */
export function CsvExportButton({ slug, collection, filters, total }: CsvExportButtonProps) {
  return <CsvDownloadButton path={csvExportPath(slug, collection, filters)} suggestedName={`${slug}-${collectionBasics[collection].path}.csv`} total={total} />;
}

interface CsvDownloadButtonProps {
  /** The export's path under /app, with the list's filters. */
  path: string;
  /** The file name the save dialog offers. */
  suggestedName: string;
  /** The rows of the list, for the progress; none (0 or unknown) disables the button. */
  total: number | undefined;
}

/** Exports every row of any filtered list as CSV (the software list's too), with progress and a way to stop. */
export function CsvDownloadButton({ path, suggestedName, total }: CsvDownloadButtonProps) {
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [outcome, setOutcome] = useState<(SaveOutcome & { rows?: number }) | undefined>(undefined);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    abort.current = new AbortController();
    setOutcome(undefined);
    setProgress(0);
    const countRecords = csvRecordCounter();
    // The header is the first record.
    let rows = 0;
    try {
      const result = await saveConsoleFile({
        path,
        suggestedName,
        filter: { name: 'CSV', extensions: ['csv'] },
        signal: abort.current.signal,
        onProgress: (_bytes, text) => {
          rows = Math.max(0, countRecords(text) - 1);
          setProgress(rows);
        },
      });
      setOutcome({ ...result, rows });
    } catch (error) {
      setOutcome({ saved: false, message: (error as Error).name === 'AbortError' ? 'Export stopped.' : 'The export failed.' });
    } finally {
      setProgress(undefined);
    }
  };

  const saved = outcome?.saved ? outcome : undefined;
  return (
    <div className="export">
      {progress === undefined ? (
        <button type="button" onClick={() => void start()} disabled={!total}>
          Export CSV
        </button>
      ) : (
        <>
          <span role="status">
            Exporting… {total ? `${formatCount(progress)} of ${formatCounted(total, 'row')}` : formatCounted(progress, 'row')}
          </span>
          <button type="button" onClick={() => abort.current?.abort()}>
            Stop
          </button>
        </>
      )}
      {saved?.path ? (
        <span role="status">
          Saved to {saved.path}{' '}
          <button type="button" className="link-button" onClick={() => void desktopBridge()?.revealInFolder(saved.path!)}>
            Show in folder
          </button>
        </span>
      ) : saved?.name ? (
        // A browser download shows no dialog: say what was saved, and where to find it.
        <span role="status">
          Downloaded {saved.name} ({formatCounted(outcome?.rows ?? 0, 'row')}) to the browser&apos;s downloads.
        </span>
      ) : null}
      {outcome && !outcome.saved && outcome.message ? <span role="alert">{outcome.message}</span> : null}
    </div>
  );
}
