import type { ReactNode } from 'react';
import { ApiError } from '../api/console-fetch';

/** The server's message on each field of a body it refused (the 400's `issues`), by field. */
export function fieldMessages(error: Error | null): Partial<Record<string, string>> {
  return error instanceof ApiError ? Object.fromEntries(error.issues.map((issue) => [issue.field, issue.message])) : {};
}

/**
 * What a form's last save said: a refusal that names none of the form's fields (its message), a
 * refusal of fields (marked beside each by the form: here, that nothing was saved), or the save.
 */
export function FormSaveOutcome({
  save,
  fields,
  savedClassName,
  saved,
}: {
  save: { isError: boolean; isSuccess: boolean; error: Error | null };
  fields: readonly string[];
  savedClassName: string;
  saved: ReactNode;
}) {
  if (save.error) {
    const ofFields = Object.keys(fieldMessages(save.error)).some((field) => fields.includes(field));
    return ofFields ? (
      <p className="field-summary" role="alert">
        Correct the fields marked above: nothing was saved.
      </p>
    ) : (
      <p className="state state--error" role="alert">
        {save.error.message}
      </p>
    );
  }
  return save.isSuccess ? (
    <p className={savedClassName} role="status">
      {saved}
    </p>
  ) : null;
}
