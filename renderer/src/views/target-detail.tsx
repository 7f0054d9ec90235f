import { StatusBadge } from '../components/badges';
import { EndpointLink } from '../components/endpoint-link';
import { FieldList } from '../components/field-list';
import { RelatedList } from './related-list';
import { TargetUpdateLine } from '../components/version-to-update-to';
import { formatCvss, formatDateTime, nvdUrl } from '../lib/format';
import { targetName } from '../lib/names';
import { DetailFrame } from './detail-frame';
import { exploitSentence } from '../components/exploit-intel';

/** A remediation target with its endpoint, the version of its product to update to, and its findings. */
export function TargetDetail({ slug, id }: { slug: string; id: string }) {
  return (
    <DetailFrame slug={slug} collection="remediationTargets" id={id} title={targetName}>
      {(t) => (
        <>
          <FieldList
            fields={[
              ['Id', <code key="id">{t.id}</code>],
              ['Endpoint', t.endpoint_id ? <EndpointLink key="endpoint" slug={slug} id={t.endpoint_id} /> : null],
              ['Type', t.target_type.replace('_', ' ')],
              ['Status', <StatusBadge key="status" status={t.status} />],
              ['Vendor', t.vendor],
              ['Product', t.product],
              ['Version', t.version],
              ['Update to', <TargetUpdateLine key="update" slug={slug} targetId={t.id} />],
              ['Install path', t.install_path],
              ['Package', t.package_name ? `${t.package_name}${t.package_manager ? ` (${t.package_manager})` : ''}` : null],
              ['Source', t.source],
              ['Highest CVSS', formatCvss(t.highest_cvss_score)],
              ['Exploit probability (30 days)', exploitSentence(t)],
              [
                'Associated CVEs',
                t.associated_cves.length ? (
                  <ul className="inline-list">
                    {t.associated_cves.map((cve) => (
                      <li key={cve}>
                        <a href={nvdUrl(cve)} target="_blank" rel="noopener noreferrer">
                          {cve}
                          <span className="visually-hidden"> (opens NVD in a new window)</span>
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : null,
              ],
              ['Created', formatDateTime(t.created_at)],
              ['Updated', formatDateTime(t.updated_at)],
            ]}
          />
          <RelatedList slug={slug} collection="findings" filter={{ remediationTargetId: t.id }} title="Findings of this target" />
        </>
      )}
    </DetailFrame>
  );
}
