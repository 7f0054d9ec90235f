import { type DragEvent, useId, useState } from 'react';
import type { ThreatIntelImportAnswer } from '../../../contracts/console/threat-intel';
import { errorMessage } from '../api/console-fetch';
import { useImportThreatIntel } from '../api/threat-intel-queries';
import { formatCount, formatDateTime } from '../lib/format';
import { intelKindLabels, intelVersionLabels } from './intel-labels';

/** One file's import: under way, its record, or the server's sentence on why nothing was imported. */
type Outcome = { name: string } & ({ state: 'importing' } | { state: 'imported'; answer: ThreatIntelImportAnswer } | { state: 'refused'; message: string });

/** An import's record in one sentence. */
function describe(answer: ThreatIntelImportAnswer): string {
  const version = answer.version === null ? 'no version' : `${intelVersionLabels[answer.kind]} ${answer.version}`;
  const what = `${intelKindLabels[answer.kind]} of ${formatDateTime(answer.source_date)}, ${version}, ${formatCount(answer.rows)} ${answer.kind === 'epss' ? 'scores' : 'entries'}`;
  if (answer.already_imported) return `${what}: imported before, nothing changed.`;
  return answer.current ? `${what}: imported, now current.` : `${what}: imported as history (a newer file of its kind is current).`;
}

/**
 * Imports files picked or dropped here, one after the other (the server runs imports one at a
 * time), each sent as it is, gzip or plain; says what each was, or the server's sentence on why
 * nothing was imported from it.
 */
export function IntelImport() {
  const id = useId();
  const importing = useImportThreatIntel();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [dragging, setDragging] = useState(false);

  const importAll = async (files: File[]) => {
    setOutcomes(files.map((file) => ({ name: file.name, state: 'importing' })));
    for (const [index, file] of files.entries()) {
      let outcome: Outcome;
      try {
        outcome = { name: file.name, state: 'imported', answer: await importing.mutateAsync(file) };
      } catch (error) {
        outcome = { name: file.name, state: 'refused', message: errorMessage(error as Error, 'the file could not be sent.') };
      }
      setOutcomes((current) => current.map((old, at) => (at === index ? outcome : old)));
    }
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void importAll([...event.dataTransfer.files]);
  };

  return (
    <section className="form-card intel-import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import files</h2>
      <div
        className={`intel-drop${dragging ? ' intel-drop--over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>
          Drop EPSS or KEV files here, or{' '}
          <label className="file-button" htmlFor={id}>
            choose files
          </label>
          <input
            id={id}
            className="visually-hidden"
            type="file"
            multiple
            accept=".csv,.gz,.json,text/csv,application/json,application/gzip"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              // Cleared so that choosing the same file again imports it again.
              event.target.value = '';
              if (files.length > 0) void importAll(files);
            }}
          />
        </p>
        <p className="hint">Gzip or plain; each file&apos;s kind is read from its content, not its name. A file that is refused changes nothing.</p>
      </div>
      {outcomes.length > 0 ? (
        <ul className="intel-outcomes" aria-label="Imported files">
          {outcomes.map((outcome, index) => (
            <li key={`${index}-${outcome.name}`}>
              <strong>{outcome.name}</strong>:{' '}
              {outcome.state === 'importing' ? (
                <span role="status">importing…</span>
              ) : outcome.state === 'imported' ? (
                <span role="status">
                  {describe(outcome.answer)} <span className="intel-sha">SHA-256 {outcome.answer.sha256}</span>
                </span>
              ) : (
                <span role="alert" className="field-error">
                  Nothing was imported: {outcome.message}
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
