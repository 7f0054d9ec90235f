import { useState } from 'react';
import { type SaveOutcome, saveConsoleFile } from '../lib/save-download';

interface FileExportButtonProps {
  /** The button's label. */
  label: string;
  /** The file's path under /app. */
  path: string;
  /** The file name the save dialog (or the download, when the server names none) offers. */
  suggestedName: string;
  /** The save dialog's file type. */
  filter: { name: string; extensions: string[] };
}

/** Saves one file the console serves, through the native dialog or as a download, and says where it went or why not. */
export function FileExportButton({ label, path, suggestedName, filter }: FileExportButtonProps) {
  return <SaveButton label={label} save={() => saveConsoleFile({ path, suggestedName, filter })} />;
}

/** A button that saves something, then says where it went or why not. */
export function SaveButton({ label, save: saveFile }: { label: string; save: () => Promise<SaveOutcome> }) {
  const [outcome, setOutcome] = useState<SaveOutcome | undefined>(undefined);
  const save = async () => {
    setOutcome(undefined);
    setOutcome(await saveFile());
  };
  return (
    <>
      <button type="button" onClick={() => void save()}>
        {label}
      </button>
      {outcome?.saved && outcome.path ? <span role="status">Saved to {outcome.path}</span> : null}
      {/* A browser download shows no dialog: say what was saved, and where to find it, as the CSV export does. */}
      {outcome?.saved && !outcome.path && outcome.name ? <span role="status">Downloaded {outcome.name} to the browser&apos;s downloads.</span> : null}
      {outcome && !outcome.saved && outcome.message ? <span role="alert">{outcome.message}</span> : null}
    </>
  );
}
