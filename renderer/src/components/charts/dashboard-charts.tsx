import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Dashboard } from '../../../../contracts/console/dashboard';
import { ChartCard, type LegendEntry } from './chart-card';
import { formatCount } from '../../lib/format';
import { vendorAndProduct } from '../../lib/names';

const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
const severityLegend: LegendEntry[] = severities.map((severity) => ({ name: severity, className: `fill-${severity}` }));
const shorten = (text: string) => (text.length > 20 ? `${text.slice(0, 19)}…` : text);
const describe = (entries: [string, number][]) => entries.map(([name, value]) => `${name}: ${formatCount(value)}`).join('; ');
// Recharts draws SVG with presentation attributes; the colours come from CSS classes, so both themes apply.
// The plots are hidden from assistive technology (each card has a text summary), so their keyboard layer is off.
const tooltipProps = { wrapperClassName: 'chart-tooltip', isAnimationActive: false } as const;

/** Findings per severity, open and remediated. */
export function SeverityChart({ data }: { data: Dashboard['findingsBySeverity'] }) {
  return (
    <ChartCard
      title="Findings by severity"
      summary={describe(data.flatMap((d) => [[`${d.severity} open`, d.open], [`${d.severity} remediated`, d.remediated]] as [string, number][]))}
      legend={[{ name: 'Open (by severity colour)', className: 'fill-high' }, { name: 'Remediated', className: 'fill-remediated' }]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="severity" tickLine={false} />
          <YAxis tickLine={false} width={56} />
          <Tooltip {...tooltipProps} />
          <Bar dataKey="open" name="Open" stackId="s" isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.severity} className={`fill-${d.severity}`} />
            ))}
          </Bar>
          <Bar dataKey="remediated" name="Remediated" stackId="s" className="fill-remediated" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function Donut({ title, entries }: { title: string; entries: { name: string; value: number; className: string }[] }) {
  return (
    <ChartCard title={title} summary={describe(entries.map((e) => [e.name, e.value]))} legend={entries}>
      <ResponsiveContainer width="100%" height="100%">
        <PieChart accessibilityLayer={false}>
          <Pie rootTabIndex={-1} data={entries} dataKey="value" nameKey="name" innerRadius="55%" outerRadius="85%" isAnimationActive={false}>
            {entries.map((entry) => (
              <Cell key={entry.name} className={entry.className} />
            ))}
          </Pie>
          <Tooltip {...tooltipProps} />
        </PieChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** Endpoints per operating system family. */
export function OsFamilyChart({ data }: { data: Dashboard['endpointsByOsFamily'] }) {
  return <Donut title="Endpoints by OS family" entries={data.map((d) => ({ name: d.family, value: d.count, className: `fill-os-${d.family}` }))} />;
}

/** Endpoints with and without an agent. */
export function AgentCoverageChart({ data }: { data: Dashboard['agentCoverage'] }) {
  return (
    <Donut
      title="Agent coverage"
      entries={[
        { name: 'With agent', value: data.withAgent, className: 'fill-agent' },
        { name: 'Without agent', value: data.withoutAgent, className: 'fill-no-agent' },
      ]}
    />
  );
}

/** The products with the most open findings. */
export function TopProductsChart({ data }: { data: Dashboard['topVulnerableProducts'] }) {
  // Axis labels are kept to one line; the summary has the full names.
  const rows = data.map((d) => ({ label: shorten(d.product ?? ''), name: vendorAndProduct(d.vendor, d.product), openFindings: d.openFindings }));
  return (
    <ChartCard title="Top vulnerable products" summary={describe(rows.map((r) => [r.name, r.openFindings]))}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid horizontal={false} />
          <XAxis type="number" tickLine={false} />
          <YAxis type="category" dataKey="label" width={190} tickLine={false} interval={0} />
          <Tooltip {...tooltipProps} />
          <Bar dataKey="openFindings" name="Open findings" className="fill-product" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** Findings per month of first detection, stacked by severity. */
export function FindingsOverTimeChart({ data }: { data: Dashboard['findingsOverTime'] }) {
  const summary = describe(data.map((d) => [d.month, severities.reduce((sum, s) => sum + d[s], 0)]));
  return (
    <ChartCard title="Findings over time (by month first detected)" summary={summary} legend={severityLegend} wide>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="month" tickLine={false} />
          <YAxis tickLine={false} width={56} />
          <Tooltip {...tooltipProps} />
          {severities.map((severity) => (
            <Bar key={severity} dataKey={severity} stackId="m" className={`fill-${severity}`} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
