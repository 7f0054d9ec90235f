import { Link } from 'react-router';
import { exceptionReasonLabels } from '../../../contracts/console/exception-basics';
import type { FindingException } from '../../../contracts/console/exceptions';
import { formatDate } from '../lib/format';
import { paths } from '../lib/paths';

/** What an exception says of a finding, in words: "Risk accepted until 5 Jan 2027". */
export const exceptionSummary = (exception: NonNullable<FindingException>) =>
  `${exceptionReasonLabels[exception.reason]} until ${formatDate(exception.expires_at)}`;

/** Marks a finding an active exception leaves out of the gaps and the risk figures, in a table's row. */
export function ExceptedBadge({ exception }: { exception: FindingException }) {
  if (!exception) return null;
  return (
    <span className="badge badge--excepted" title={`Excepted: ${exceptionSummary(exception)}`}>
      Excepted<span className="visually-hidden">: {exceptionSummary(exception)}</span>
    </span>
  );
}

/** The exception a finding is under, linked to it in the exceptions view; null when none. */
export function ExceptionLink({ slug, exception }: { slug: string; exception: FindingException }) {
  if (!exception) return null;
  return (
    <Link className="exception-link" to={paths.exceptions(slug, { selected: exception.id })}>
      {exceptionSummary(exception)}
    </Link>
  );
}
