import { useId } from 'react';
import { Link } from 'react-router';
import type { Exposure } from '../../../contracts/console/exposure';
import { riskScoreExplanation } from '../../../contracts/risk-score';
import { formatCount, orDash } from '../lib/format';

interface ExposureFiguresProps {
  exposure: Exposure;
  /** The findings list a figure opens, narrowed to the open findings it counts. */
  findingsPath: (filters: Record<string, string>) => string;
}

/**
 * What something is exposed to, as figures: its risk score with how it is computed next to it,
 * its open findings by severity, those in the KEV catalog and their highest CVSS score. Each
 * figure opens the open findings it counts.
 */
export function ExposureFigures({ exposure, findingsPath }: ExposureFiguresProps) {
  const explanationId = useId();
  const open = { status: 'open' };
  const { critical, high, medium, low, info } = exposure.open_findings;
  const figures: { label: string; value: string; filters: Record<string, string>; tone?: string }[] = [
    { label: 'Critical', value: formatCount(critical), filters: { ...open, severity: 'critical' }, tone: critical ? 'critical' : undefined },
    { label: 'High', value: formatCount(high), filters: { ...open, severity: 'high' }, tone: high ? 'high' : undefined },
    { label: 'Medium', value: formatCount(medium), filters: { ...open, severity: 'medium' } },
    { label: 'Low', value: formatCount(low), filters: { ...open, severity: 'low' } },
    { label: 'Info', value: formatCount(info), filters: { ...open, severity: 'info' } },
    { label: 'KEV', value: formatCount(exposure.open_kev_findings), filters: { ...open, isKev: 'true' }, tone: exposure.open_kev_findings ? 'critical' : undefined },
    { label: 'Max CVSS', value: orDash(exposure.highest_open_cvss), filters: { ...open, sort: '-cvss_score' } },
  ];
  return (
    <section className="exposure" aria-labelledby={`${explanationId}-title`}>
      <h2 id={`${explanationId}-title`}>Exposure</h2>
      <div className="exposure__body">
        <div className="exposure__risk">
          <Link to={findingsPath(open)} className="figure__link" aria-describedby={explanationId}>
            <span className="figure__value">{formatCount(exposure.risk_score)}</span>
            <span className="figure__label">Risk score</span>
          </Link>
          <p id={explanationId} className="exposure__explanation">
            {riskScoreExplanation}
          </p>
        </div>
        <div>
          <p id={`${explanationId}-open`} className="exposure__caption">
            Open findings
          </p>
          <ul className="figures figures--compact" aria-labelledby={`${explanationId}-open`}>
            {figures.map(({ label, value, filters, tone }) => (
              <li key={label} className="figure">
                <Link to={findingsPath(filters)} className="figure__link">
                  <span className={`figure__value${tone ? ` count--${tone}` : ''}`}>{value}</span>
                  <span className="figure__label">{label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
