import type { UseMutationResult } from '@tanstack/react-query';
import { type ChangeEvent, useId } from 'react';
import { errorMessage } from '../api/console-fetch';

interface FileImportButtonProps<R> {
  /** The file chooser's label. */
  label: string;
  /** The file types the chooser offers (the input's `accept`). */
  accept: string;
  /** The import's mutation, sent the chosen file's text. */
  importing: UseMutationResult<R, Error, string>;
  /** What the server answered an import with, in words. */
  describe: (result: R) => string;
}

/** Sends a chosen file's text to an import, and says what it changed or, as the server put it, why nothing was imported. */
export function FileImportButton<R>({ label, accept, importing, describe }: FileImportButtonProps<R>) {
  const id = useId();
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again imports it again.
    event.target.value = '';
    if (file) importing.mutate(await file.text());
  };
  return (
    <>
      <label className="file-button" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="visually-hidden" type="file" accept={accept} onChange={(event) => void choose(event)} />
      {importing.data ? <span role="status">{describe(importing.data)}</span> : null}
      {importing.isError ? (
        <span role="alert" className="field-error">
          Nothing was imported: {errorMessage(importing.error, 'the file could not be sent.')}
        </span>
      ) : null}
    </>
  );
}
