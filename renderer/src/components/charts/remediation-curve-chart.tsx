import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RemediationPlan } from '../../../../contracts/console/software';
import { formatCount, formatCounted, formatGoal, formatShare } from '../../lib/format';
import { productLabel } from '../../lib/software-names';

/** One point of the curve: after `products` updates, `percent` of the findings are closed. */
interface CurvePoint {
  products: number;
  percent: number;
  endpoints: number;
  name: string;
}

/** The curve in words, for the chart's accessible name: where it ends and what each goal takes. */
export function curveDescription(plan: RemediationPlan): string {
  const last = plan.steps.at(-1);
  const goals = plan.milestones.map((m) =>
    m.reached
      ? `${formatGoal(m.goal)} after ${formatCounted(m.products, 'product')} on ${formatCounted(m.endpoints, 'endpoint')}`
      : `${formatGoal(m.goal)} not reached`,
  );
  return (
    `Cumulative share of the ${formatCount(plan.open_critical_or_kev)} open critical and KEV findings closed as the plan's ` +
    `${formatCounted(plan.steps.length, 'product')} updated in order, from 0 % to ${formatShare(last?.cumulative_share ?? 0)}` +
    `${goals.length ? `: ${goals.join('; ')}` : ''}.`
  );
}

/**
 * The remediation plan's cumulative curve: the share of open critical and KEV findings closed
 * (0 to 100 %) as the products are updated in plan order, the goals as dashed lines and the
 * point where each reached goal is met. The plot is one image for assistive technology, named
 * by {@link curveDescription}; the steps' table below it holds every figure. A module of its
 * own, loaded with the view, so that the chart library loads only with a chart.
 */
export default function RemediationCurveChart({ plan }: { plan: RemediationPlan }) {
  const points: CurvePoint[] = [
    { products: 0, percent: 0, endpoints: 0, name: 'Before any update' },
    ...plan.steps.map((step, index) => ({
      products: index + 1,
      percent: step.cumulative_share * 100,
      endpoints: step.cumulative_endpoints,
      name: productLabel(step),
    })),
  ];
  return (
    <figure className="chart-card curve-card">
      <figcaption>
        <h2>Share closed as the products are updated</h2>
      </figcaption>
      <div className="chart-card__plot curve-card__plot" role="img" aria-label={curveDescription(plan)}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={points} margin={{ top: 12, right: 24, bottom: 20, left: 8 }}>
            <CartesianGrid />
            <XAxis
              dataKey="products"
              type="number"
              domain={[0, Math.max(1, plan.steps.length)]}
              allowDecimals={false}
              tickLine={false}
              label={{ value: 'Products updated, in plan order', position: 'insideBottom', offset: -12 }}
            />
            <YAxis type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(value: number) => `${value} %`} width={56} tickLine={false} />
            {plan.milestones.map((m) => (
              <ReferenceLine
                key={m.goal}
                y={m.goal * 100}
                className="curve-card__goal"
                strokeDasharray="5 4"
                // At the left, above the line: the curve starts low there, and ends on the right where the goals are met.
                label={{ value: `${formatGoal(m.goal)} goal`, position: 'insideTopLeft', className: 'curve-card__goal-label' }}
              />
            ))}
            <Tooltip
              wrapperClassName="chart-tooltip"
              isAnimationActive={false}
              labelFormatter={(_label, payload) => {
                const point = payload[0]?.payload as CurvePoint | undefined;
                return point ? `${formatCount(point.products)}. ${point.name}` : '';
              }}
              formatter={(value, _name, item) => [
                `${formatShare(Number(value) / 100)} closed, ${formatCounted((item.payload as CurvePoint).endpoints, 'endpoint')}`,
                'Plan so far',
              ]}
            />
            <Line type="linear" dataKey="percent" name="Closed" className="curve-card__line" dot={plan.steps.length <= 30} isAnimationActive={false} />
            {plan.milestones
              .filter((m) => m.reached)
              .map((m) => (
                <ReferenceDot key={m.goal} x={m.products} y={m.share * 100} r={5} className="curve-card__milestone" />
              ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
