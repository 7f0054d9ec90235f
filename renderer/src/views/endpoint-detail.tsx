import { EndpointContextPanel } from '../components/endpoint-context-panel';
import { ExposureFigures } from '../components/exposure-figures';
import { FieldList } from '../components/field-list';
import { RelatedList } from './related-list';
import { formatDateTime } from '../lib/format';
import { DetailFrame } from './detail-frame';

/** An endpoint: what it is exposed to first, then its fields, its remediation targets and findings. */
export function EndpointDetail({ slug, id }: { slug: string; id: string }) {
  return (
    <DetailFrame slug={slug} collection="endpoints" id={id} title={(e) => e.hostname}>
      {(e) => (
        <>
          <ExposureFigures
            label="Exposure of the endpoint"
            exposure={e}
            exceptions={{ exceptedOpenFindings: e.excepted_open_findings, riskScoreBefore: e.risk_score_before_exceptions }}
            criticality={{ criticality: e.criticality, riskScoreBefore: e.risk_score_before_criticality }}
            exploit={e}
          />
          <EndpointContextPanel slug={slug} endpointId={e.id} />
          <FieldList
            fields={[
              ['Id', <code key="id">{e.id}</code>],
              ['IP address', e.ip],
              ['MAC address', e.mac_address],
              ['Operating system', `${e.operating_system.name} ${e.operating_system.version ?? ''}`],
              ['OS family', e.operating_system.family],
              ['OS vendor', e.operating_system.vendor],
              ['Architecture', e.operating_system.architecture],
              ['Agent', e.agent_id ? `${e.agent_id} (version ${e.agent_version ?? 'unknown'})` : 'No agent installed'],
              ['Discovered', formatDateTime(e.created_at)],
              ['Updated', formatDateTime(e.updated_at)],
            ]}
          />
          <RelatedList slug={slug} collection="remediationTargets" filter={{ endpointId: e.id }} title="Remediation targets on this endpoint" />
          <RelatedList slug={slug} collection="findings" filter={{ endpointId: e.id }} title="Findings on this endpoint" />
        </>
      )}
    </DetailFrame>
  );
}
