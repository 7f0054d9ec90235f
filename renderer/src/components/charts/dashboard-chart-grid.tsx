import type { Dashboard } from '../../../../contracts/console/dashboard';
import { AgentCoverageChart, FindingsOverTimeChart, OsFamilyChart, SeverityChart, TopProductsChart } from './dashboard-charts';

/** The dashboard's charts; a module of its own so that the chart library loads only with the dashboard. */
export default function DashboardChartGrid({ dashboard }: { dashboard: Dashboard }) {
  return (
    <div className="chart-grid-layout">
      <SeverityChart data={dashboard.findingsBySeverity} />
      <OsFamilyChart data={dashboard.endpointsByOsFamily} />
      <AgentCoverageChart data={dashboard.agentCoverage} />
      <TopProductsChart data={dashboard.topVulnerableProducts} />
      <FindingsOverTimeChart data={dashboard.findingsOverTime} />
    </div>
  );
}
