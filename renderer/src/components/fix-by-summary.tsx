import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { dueWindows } from '../../../contracts/fix-by';
import { fixBySummaryQuery } from '../api/deadline-queries';
import { paths } from '../lib/paths';
import { QueryFrame } from './query-state';

/** A day `days` from now, YYYY-MM-DD (UTC): what "due within" links filter by. */
const dayFromNow = (asOf: string, days: number) => new Date(Date.parse(asOf) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The open findings due in the next 3, 14 and 60 days under BOD 26-04's fix-by dates, those
 * overdue, and those that can wait for the next upgrade, each a link to the findings it counts.
 */
export function FixBySummary({ slug }: { slug: string }) {
  const summary = useQuery(fixBySummaryQuery(slug));
  return (
    <QueryFrame query={summary} what="the fix-by dates">
      {(data) => (
        <section aria-label="Fix-by dates" className="fix-by-summary">
          <h2>Fix by (BOD 26-04)</h2>
          <ul className="figures">
            <li className="figure">
              <Link className="figure__link" to={paths.list(slug, 'findings', { status: 'open', fixByBefore: dayFromNow(data.as_of, -1), sort: 'fix_by' })}>
                <span className="figure__value">{data.overdue}</span> overdue
              </Link>
            </li>
            {dueWindows.map((days) => (
              <li className="figure" key={days}>
                <Link className="figure__link" to={paths.list(slug, 'findings', { status: 'open', fixByBefore: dayFromNow(data.as_of, days - 1), sort: 'fix_by' })}>
                  <span className="figure__value">{data.due_within[`days_${days}`]}</span> due in {days} days
                </Link>
              </li>
            ))}
            <li className="figure">
              <Link className="figure__link" to={paths.list(slug, 'findings', { status: 'open', bod2604Outcome: 'fix on system upgrade' })}>
                <span className="figure__value">{data.on_upgrade}</span> can wait for the next upgrade
              </Link>
            </li>
          </ul>
          <p className="hint">
            {data.tables.map((table) => `${table.name} ${table.version}`).join(', ')}. {data.notice}
          </p>
        </section>
      )}
    </QueryFrame>
  );
}
