import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { EpssChange } from '../../../contracts/console/threat-intel';
import { epssHistoryQuery } from '../api/threat-intel-queries';
import { QueryFrame } from '../components/query-state';
import { TableHead, figureColumns } from '../components/table-head';
import { formatDate, formatDateTime, orDash } from '../lib/format';
import { formatEpss } from './intel-labels';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';

/** Why a change is not computed, in words. */
const gapTexts: Record<NonNullable<EpssChange['gap']>, string> = {
  'no-file': 'no EPSS file is imported',
  'not-scored': 'the newest file does not score this CVE',
  'no-earlier-import': 'no import kept is that old, or it does not score this CVE',
  'model-changed': 'the earlier import is of another model: scores are not comparable',
};

function changeText(change: EpssChange): string {
  if (change.change === null) return `not computed: ${gapTexts[change.gap!]}`;
  return `${change.change > 0 ? '+' : ''}${formatEpss(change.change)} since ${formatDate(change.from_date)}`;
}

/** The URL parameter of the CVE whose history is shown, so that a page can link to it. */
const epssHistoryParameter = 'cve';

/** A CVE's EPSS history, asked for by its id (in the URL's `?cve=`): each kept import's score, and the 7- and 30-day change. */
export function IntelEpssHistory() {
  const id = useId();
  const { search, changeSearch } = useUrlSearch();
  const cveId = search.get(epssHistoryParameter) ?? '';
  const [draft, setDraft] = useState(cveId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    changeSearch((next) => setOrRemove(next, epssHistoryParameter, draft.trim()), { replace: true });
  };
  return (
    <section className="form-card intel-history" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>A CVE&apos;s EPSS history</h2>
      <form onSubmit={submit} className="toolbar">
        <label htmlFor={id}>CVE</label>
        <input id={id} value={draft} placeholder="CVE-2021-44228" onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">Show</button>
      </form>
      {cveId ? <History cveId={cveId} /> : <p className="hint">History is kept, for the CVEs some organization names, from the last 30 EPSS imports.</p>}
    </section>
  );
}

function History({ cveId }: { cveId: string }) {
  const history = useQuery(epssHistoryQuery(cveId));
  return (
    <QueryFrame query={history} what="the history">
      {(data) => (
        <>
          <ul className="intel-history__changes">
            {data.changes.map((change) => (
              <li key={change.days}>
                {change.days}-day change: {changeText(change)}
              </li>
            ))}
          </ul>
          {data.history.length > 0 ? (
            <table className="plain-table">
              <caption className="visually-hidden">EPSS of {data.cve_id} in each kept import</caption>
              <TableHead columns={['Score date', 'Model', ...figureColumns(['EPSS', 'Percentile'])]} />
              <tbody>
                {data.history.map((point) => (
                  <tr key={point.import_id}>
                    <td>{formatDateTime(point.score_date)}</td>
                    <td>{orDash(point.model_version)}</td>
                    <td className="num">{formatEpss(point.epss)}</td>
                    <td className="num">{formatEpss(point.percentile)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="hint">No kept import scores {data.cve_id}.</p>
          )}
        </>
      )}
    </QueryFrame>
  );
}
