import { Bar, BarChart, CartesianGrid, ComposedChart, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RemediationPerformance } from '../../../../contracts/console/deadlines';
import { findingSeverities } from '../../../../contracts/enums';
import { formatCount, formatDays, formatShare } from '../../lib/format';
import { ChartCard, type LegendEntry } from './chart-card';

// As the dashboard's charts: colours are CSS classes, the plots hidden from assistive
// technology (each card has a text summary), so their keyboard layer is off. A tooltip's lines
// are in the text's colour: a series' pale colour (no deadline) is not readable as text.
const tooltipProps = { wrapperClassName: 'chart-tooltip', isAnimationActive: false, itemStyle: { color: 'var(--text)' } } as const;
const severityLegend: LegendEntry[] = findingSeverities.map((severity) => ({ name: severity, className: `fill-${severity}` }));

/** Remediated findings per month: in time, late, without a deadline; and the median days it took. */
function RemediatedPerMonth({ monthly }: { monthly: RemediationPerformance['monthly'] }) {
  const rows = monthly.map((m) => ({
    month: m.month,
    inTime: m.remediated_in_time,
    late: m.remediated_with_deadline - m.remediated_in_time,
    noDeadline: m.remediated - m.remediated_with_deadline,
    median: m.median_days_to_remediate,
  }));
  const summary = monthly
    .map(
      (m) =>
        `${m.month}: ${formatCount(m.remediated)} remediated, ${m.share_in_time === null ? 'none with a deadline' : `${formatShare(m.share_in_time)} in time`}, median ${formatDays(m.median_days_to_remediate)}`,
    )
    .join('; ');
  return (
    <ChartCard
      title="Remediated per month"
      summary={summary}
      legend={[
        { name: 'In time', className: 'fill-in-time' },
        { name: 'Late', className: 'fill-late' },
        { name: 'No deadline', className: 'fill-remediated' },
        { name: 'Median days to remediate (right axis)', className: 'fill-median' },
      ]}
      wide
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="month" tickLine={false} />
          <YAxis yAxisId="count" tickLine={false} width={56} allowDecimals={false} />
          <YAxis yAxisId="days" orientation="right" tickLine={false} width={48} tickFormatter={(value: number) => `${value} d`} />
          <Tooltip {...tooltipProps} />
          <Bar yAxisId="count" dataKey="inTime" name="In time" stackId="r" className="fill-in-time" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="late" name="Late" stackId="r" className="fill-late" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="noDeadline" name="No deadline" stackId="r" className="fill-remediated" isAnimationActive={false} />
          <Line yAxisId="days" dataKey="median" name="Median days" className="performance-line--median" dot={false} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** Open and overdue findings at each month's end (the current month: now). */
function OpenAtMonthEnd({ monthly }: { monthly: RemediationPerformance['monthly'] }) {
  const rows = monthly.map((m) => ({ month: m.month, open: m.open_at_end, overdue: m.overdue_at_end }));
  const summary = monthly.map((m) => `${m.month}: ${formatCount(m.open_at_end)} open, ${formatCount(m.overdue_at_end)} overdue`).join('; ');
  return (
    <ChartCard
      title="Open and overdue at each month's end"
      summary={summary}
      legend={[
        { name: 'Open', className: 'fill-open' },
        { name: 'Overdue', className: 'fill-late' },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="month" tickLine={false} />
          <YAxis tickLine={false} width={56} allowDecimals={false} />
          <Tooltip {...tooltipProps} />
          <Line dataKey="open" name="Open" className="performance-line--open" dot={false} isAnimationActive={false} />
          <Line dataKey="overdue" name="Overdue" className="performance-line--overdue" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** Open findings by age, stacked by severity. */
function OpenByAge({ buckets }: { buckets: RemediationPerformance['age_buckets'] }) {
  const rows = buckets.map((b) => ({ label: b.label, ...b.by_severity }));
  return (
    <ChartCard title="Open findings by age (days)" summary={buckets.map((b) => `${b.label}: ${formatCount(b.open)}`).join('; ')} legend={severityLegend}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid vertical={false} />
          {/* "31–90", the title saying days: five labels of "… days" overlap at half the width. */}
          <XAxis dataKey="label" tickLine={false} interval={0} tickFormatter={(label: string) => label.replace(' days', '').replace('Over ', '> ')} />
          <YAxis tickLine={false} width={56} allowDecimals={false} />
          <Tooltip {...tooltipProps} />
          {findingSeverities.map((severity) => (
            <Bar key={severity} dataKey={severity} stackId="a" className={`fill-${severity}`} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/**
 * The performance's charts: the last twelve months' remediations and backlog, and the open
 * findings by age. A module of its own, so that the chart library loads only with a chart.
 */
export default function PerformanceCharts({ performance }: { performance: RemediationPerformance }) {
  return (
    <div className="chart-grid-layout performance-charts">
      <RemediatedPerMonth monthly={performance.monthly} />
      <OpenAtMonthEnd monthly={performance.monthly} />
      <OpenByAge buckets={performance.age_buckets} />
    </div>
  );
}
