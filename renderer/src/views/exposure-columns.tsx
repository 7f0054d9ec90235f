import type { Exposure, ExposureSortKey } from '../../../contracts/console/exposure';
import { findingSeverities } from '../../../contracts/enums';
import { riskScoreExplanation } from '../../../contracts/risk-score';
import type { Column } from '../components/virtual-table';
import { formatCount, formatCvss } from '../lib/format';

/** A count of open findings; a zero is muted, so that the counts that matter stand out, in their severity's colour. */
function OpenCount({ value, className = '' }: { value: number; className?: string }) {
  return <span className={value === 0 ? 'count count--zero' : `count ${className}`}>{formatCount(value)}</span>;
}

/*
 * Widths fit the header with its sort mark (the mark and its gap are about 13 px): a figure's
 * column is as narrow as its header allows, so that the endpoints table's thirteen columns fit
 * 1,280 pixels.
 */
const severityWidths: Record<(typeof findingSeverities)[number], string> = { critical: '4.6rem', high: '3.3rem', medium: '4.7rem', low: '3rem', info: '3rem' };

/**
 * The columns of what something is exposed to, the same in every table that shows it (the
 * endpoints, the software views): the risk score (with its explanation), the open findings by
 * severity, the open KEV findings and the highest open CVSS, each sortable by the exposure's
 * sort key where the table sorts, largest first on the first click.
 */
export function exposureColumns<T extends Exposure>(): Column<T, ExposureSortKey>[] {
  return [
    {
      id: 'risk',
      header: 'Risk',
      // Scores run to six digits on a large fleet (334,130).
      width: '4.5rem',
      cell: (item) => <strong>{formatCount(item.risk_score)}</strong>,
      sortKey: 'risk_score',
      descendingFirst: true,
      description: riskScoreExplanation,
    },
    ...findingSeverities.map(
      (severity): Column<T, ExposureSortKey> => ({
        id: severity,
        header: severity[0]!.toUpperCase() + severity.slice(1),
        width: severityWidths[severity],
        cell: (item) => <OpenCount value={item.open_findings[severity]} className={`count--${severity}`} />,
        sortKey: `open_${severity}`,
        descendingFirst: true,
        description: `Open ${severity} findings`,
      }),
    ),
    {
      id: 'kev',
      header: 'KEV',
      width: '3.2rem',
      cell: (item) => <OpenCount value={item.open_kev_findings} className="count--kev" />,
      sortKey: 'open_kev_findings',
      descendingFirst: true,
      description: "Open findings whose CVE is in CISA's known exploited vulnerabilities catalog",
    },
    {
      id: 'max-cvss',
      // "Max CVSS" would cost the endpoints table its last column; the description says it.
      header: 'CVSS',
      width: '3.9rem',
      cell: (item) => formatCvss(item.highest_open_cvss),
      sortKey: 'highest_open_cvss',
      descendingFirst: true,
      description: 'The highest CVSS score of the open findings',
    },
  ];
}
