import type { Exposure, ExposureSortKey } from '../../../contracts/console/exposure';
import { riskScoreExplanation } from '../../../contracts/risk-score';
import type { Column } from '../components/virtual-table';
import { formatCount, orDash } from '../lib/format';

/** A count of open findings; a zero is muted so that the rows with some stand out, criticals and highs in their colour. */
function OpenCount({ value, tone }: { value: number; tone?: 'critical' | 'high' | 'kev' }) {
  return <span className={value === 0 ? 'count count--zero' : `count${tone ? ` count--${tone}` : ''}`}>{formatCount(value)}</span>;
}

/*
 * Widths fit the header with its sort mark (the mark and its gap are about 13 px): a figure's
 * column is as narrow as its header allows, the table has eleven columns in 1,280 pixels.
 */

/**
 * The columns of what something is exposed to (an endpoint's open findings, their KEV count,
 * their highest CVSS and the risk score), each sortable by the exposure's sort key and largest
 * first on the first click. Low and info counts are left to the detail page: the table has no
 * room for them, and they hardly move the risk score.
 */
export const exposureColumns: Column<Exposure, ExposureSortKey>[] = [
  {
    id: 'risk',
    header: 'Risk',
    // Scores run to six digits and more on a large fleet (26,790).
    width: '4.6rem',
    cell: (e) => <strong>{formatCount(e.risk_score)}</strong>,
    sortKey: 'risk_score',
    descendingFirst: true,
    description: riskScoreExplanation,
  },
  {
    id: 'critical',
    header: 'Critical',
    width: '5rem',
    cell: (e) => <OpenCount value={e.open_findings.critical} tone="critical" />,
    sortKey: 'open_critical',
    descendingFirst: true,
    description: 'Open critical findings',
  },
  {
    id: 'high',
    header: 'High',
    width: '3.6rem',
    cell: (e) => <OpenCount value={e.open_findings.high} tone="high" />,
    sortKey: 'open_high',
    descendingFirst: true,
    description: 'Open high findings',
  },
  {
    id: 'medium',
    header: 'Medium',
    width: '5.4rem',
    cell: (e) => <OpenCount value={e.open_findings.medium} />,
    sortKey: 'open_medium',
    descendingFirst: true,
    description: 'Open medium findings',
  },
  {
    id: 'kev',
    header: 'KEV',
    width: '3.2rem',
    cell: (e) => <OpenCount value={e.open_kev_findings} tone="kev" />,
    sortKey: 'open_kev_findings',
    descendingFirst: true,
    description: "Open findings whose CVE is in CISA's known exploited vulnerabilities catalog",
  },
  {
    id: 'max-cvss',
    header: 'Max CVSS',
    width: '6.5rem',
    cell: (e) => orDash(e.highest_open_cvss),
    sortKey: 'highest_open_cvss',
    descendingFirst: true,
    description: 'The highest CVSS score of the open findings',
  },
];
