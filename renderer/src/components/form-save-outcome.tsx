import type { ReactNode } from 'react';
import { ApiError } from '../api/console-fetch';

/** The server's message on each field of a body it refused (the 400's `issues`), by field. */
export function fieldMessages(error: Error | null): Partial<Record<string, string>> {
  return error instanceof ApiError ? Object.fromEntries(error.issues.map((issue) => [issue.field, issue.message])) : {};
}

/** The message on `field` or on a field under it (`conditions.0` takes `conditions.0.cidr`'s): one input stands for both. */
export function messageUnder(errors: Partial<Record<string, string>>, field: string): string | undefined {
  return errors[field] ?? Object.entries(errors).find(([path]) => path.startsWith(`${field}.`))?.[1];
}

/**
 * The message on a list typed into one input (`tags`), or on one item of it (`tags.2`), which it
 * then names: the input is marked, with the item the server refused.
 */
export function messageOnList(errors: Partial<Record<string, string>>, field: string, items: readonly string[] | undefined): string | undefined {
  if (errors[field]) return errors[field];
  for (const [path, message] of Object.entries(errors)) {
    const index = path.startsWith(`${field}.`) ? Number(path.slice(field.length + 1).split('.')[0]) : Number.NaN;
    if (Number.isInteger(index) && message) return items?.[index] === undefined ? message : `“${items[index]}” ${message}`;
  }
  return undefined;
}

/** The attributes of an input whose value was refused: invalid, described by the message's element. */
export function invalidInput(message: string | undefined, errorId: string, hintId?: string) {
  const describedBy = [hintId, message ? errorId : undefined].filter(Boolean).join(' ');
  return { 'aria-invalid': message ? true : undefined, 'aria-describedby': describedBy || undefined };
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
