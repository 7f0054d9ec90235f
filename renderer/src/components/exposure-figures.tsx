import type { Exposure } from '../../../contracts/console/exposure';
import { findingSeverities } from '../../../contracts/enums';
import type { EndpointCriticality } from '../../../contracts/enums';
import { criticalityFactors, exploitProbabilityExplanation, riskScoreExplanation } from '../../../contracts/risk-score';
import { exploitFigure } from './exploit-intel';
import { formatCount, formatCvss } from '../lib/format';

interface ExposureFiguresProps {
  /** The list's accessible name. */
  label: string;
  exposure: Exposure;
  /** Figures shown before the exposure's, e.g. the versions and endpoints of a product. */
  leading?: [label: string, value: number][];
  /** What active exceptions leave out of the exposure (an endpoint's): said beside the figures they change. */
  exceptions?: { exceptedOpenFindings: number; riskScoreBefore: number };
  /** An endpoint's criticality, which weighs its risk score, and the score before it: said beside the score unless `normal`. */
  criticality?: { criticality: EndpointCriticality; riskScoreBefore: number };
  /** An endpoint's exploit probability (contracts/console/exploit-intel.ts), shown beside the risk score, with how it is made. */
  exploit?: { exploit_probability_30d: number | null; unscored_open_cves: number };
}

/**
 * What a product's or a version's open findings expose, as figures: the risk score (with how it
 * is made), the open findings (their total, then by severity: one figure, so that the figures
 * fit one row), the open KEV findings and the highest open CVSS.
 */
export function ExposureFigures({ label, exposure, leading = [], exceptions, criticality, exploit }: ExposureFiguresProps) {
  const open = findingSeverities.reduce((sum, severity) => sum + exposure.open_findings[severity], 0);
  const excepted = exceptions && exceptions.exceptedOpenFindings > 0 ? exceptions : undefined;
  const weighed = criticality && criticality.criticality !== 'normal' ? criticality : undefined;
  const notes = [
    weighed && `${formatCount(weighed.riskScoreBefore)} before criticality (${weighed.criticality}, ×${criticalityFactors[weighed.criticality]})`,
    excepted && `${formatCount(excepted.riskScoreBefore)} before exceptions`,
  ].filter(Boolean);
  return (
    <>
      <ul className="figures exposure-figures" aria-label={label}>
        {leading.map(([name, value]) => (
          <Figure key={name} name={name} value={formatCount(value)} />
        ))}
        <Figure name="Risk score" value={formatCount(exposure.risk_score)} note={notes.join('; ') || undefined} />
        {exploit ? <Figure name="Exploit probability (30 days)" {...exploitFigure(exploit)} /> : null}
        <li className="figure figure--wide">
          <span className="figure__value">{formatCount(open)}</span>
          <span className="figure__label">Open findings{excepted ? `, ${formatCount(excepted.exceptedOpenFindings)} more excepted` : ''}</span>
          <span className="figure__label exposure-figures__severities">
            {findingSeverities.map((severity) => (
              <span key={severity} className={exposure.open_findings[severity] ? `count--${severity}` : undefined}>
                {formatCount(exposure.open_findings[severity])} {severity}
              </span>
            ))}
          </span>
        </li>
        <Figure name="Open KEV" value={formatCount(exposure.open_kev_findings)} />
        <Figure name="Highest open CVSS" value={formatCvss(exposure.highest_open_cvss)} />
      </ul>
      <p className="hint">
        {riskScoreExplanation}
        {exploit ? ` ${exploitProbabilityExplanation}` : null}
      </p>
    </>
  );
}

function Figure({ name, value, note }: { name: string; value: string; note?: string | undefined }) {
  return (
    <li className="figure">
      <span className="figure__value">{value}</span>
      <span className="figure__label">{name}</span>
      {note ? <span className="figure__label">{note}</span> : null}
    </li>
  );
}
