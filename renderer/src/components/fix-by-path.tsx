import type { FixByStep } from '../../../contracts/fix-by';
import type { Bod2604Outcome } from '../../../contracts/ssvc-tables';

/** A finding's fix-by fields, as the console answers them. */
interface FixByFields {
  bod2604_outcome: Bod2604Outcome | null;
  ssvc_decision: string | null;
  fix_by: string | null;
  fix_by_path: FixByStep[];
}

/**
 * How a finding got its fix-by date: each BOD 26-04 input with its value and source (an assumed
 * one said so), then the outcome and the date; below, the Coordinator's inputs and decision.
 * Nothing for a finding that is not open.
 */
export function FixByPath({ finding }: { finding: FixByFields }) {
  if (finding.bod2604_outcome === null) return <span>Not open: no fix-by date</span>;
  const step = (entry: FixByStep) => (
    <li key={entry.input} className={entry.assumed ? 'fix-by-step fix-by-step--assumed' : 'fix-by-step'}>
      {entry.input}: <strong>{entry.value}</strong> ({entry.source}
      {entry.since && !entry.assumed ? `, since ${entry.since}` : ''})
    </li>
  );
  return (
    <div className="fix-by-path">
      <ol aria-label="BOD 26-04 path">
        {finding.fix_by_path.slice(0, 4).map(step)}
        <li className="fix-by-outcome">
          <strong>{finding.bod2604_outcome}</strong>
          {finding.fix_by ? `, by ${finding.fix_by}` : ': no date'}
        </li>
      </ol>
      <ol aria-label="Coordinator decision path">
        {finding.fix_by_path.slice(2).map(step)}
        <li className="fix-by-outcome">
          Coordinator decision: <strong>{finding.ssvc_decision}</strong>
        </li>
      </ol>
    </div>
  );
}
