import type { Exposure } from '../../../contracts/console/exposure';
import { findingSeverities } from '../../../contracts/enums';
import { riskScoreExplanation } from '../../../contracts/risk-score';
import { formatCount } from '../lib/format';

interface ExposureFiguresProps {
  /** The list's accessible name. */
  label: string;
  exposure: Exposure;
  /** Figures shown before the exposure's, e.g. the versions and endpoints of a product. */
  leading?: [label: string, value: number][];
}

/**
 * What a product's or a version's open findings expose, as figures: open findings by severity,
 * open KEV findings, the highest open CVSS and the risk score, with how the score is made.
 */
export function ExposureFigures({ label, exposure, leading = [] }: ExposureFiguresProps) {
  const figures: [string, string][] = [
    ...leading.map(([name, value]): [string, string] => [name, formatCount(value)]),
    ...findingSeverities.map((severity): [string, string] => [`Open ${severity}`, formatCount(exposure.open_findings[severity])]),
    ['Open KEV', formatCount(exposure.open_kev_findings)],
    ['Highest open CVSS', exposure.highest_open_cvss === null ? '—' : exposure.highest_open_cvss.toFixed(1)],
    ['Risk score', formatCount(exposure.risk_score)],
  ];
  return (
    <>
      <ul className="figures" aria-label={label}>
        {figures.map(([name, value]) => (
          <li key={name} className="figure">
            <span className="figure__value">{value}</span>
            <span className="figure__label">{name}</span>
          </li>
        ))}
      </ul>
      <p className="hint">{riskScoreExplanation}</p>
    </>
  );
}
