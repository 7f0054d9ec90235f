import { useQuery } from '@tanstack/react-query';
import { intelImportsQuery } from '../api/threat-intel-queries';
import { QueryFrame } from '../components/query-state';
import { formatDate } from '../lib/format';
import { IntelEpssHistory } from './intel-epss-history';
import { IntelImport } from './intel-import';
import { IntelImportsTable, epssModelChange } from './intel-imports-table';
import { IntelOrganization } from './intel-organization';
import { IntelSettingsForm } from './intel-settings-form';
import { IntelSources } from './intel-sources';
import '../styles/intel.css';

/**
 * Exploit intelligence: import FIRST's EPSS file and the KEV catalogs of CISA and ENISA (picked
 * or dropped), the imports with their dates and versions, where the files come from with
 * FIRST's attribution, the EPSS threshold, a CVE's EPSS history, and for the organization of the
 * URL where its KEV flag and the catalogs disagree and what each import changed for it.
 * Intelligence is the installation's: one import serves every organization.
 */
export function IntelView({ slug }: { slug: string }) {
  const imports = useQuery(intelImportsQuery());
  return (
    <section className="view intel-view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Threat intelligence</h1>
      </header>
      <p className="hint">
        EPSS scores and KEV catalogs imported from their files serve every organization of this installation, are kept across syncs and are never served by /v1.
      </p>
      <IntelImport />
      <section aria-labelledby="intel-imports-title">
        <h2 id="intel-imports-title">Imports</h2>
        <QueryFrame query={imports} what="the imports" empty={(data) => data.data.length === 0 && 'No file is imported yet: every EPSS and KEV figure reads “no file”.'}>
          {(data) => {
            const modelChange = epssModelChange(data.data);
            return (
              <>
                {modelChange ? (
                  <p className="notice" role="note">
                    The EPSS model changed from {modelChange.from ?? 'none'} to {modelChange.to ?? 'none'} with the file of {formatDate(modelChange.date)}: its scores are not
                    comparable with earlier ones, and no 7- or 30-day change is computed across the two.
                  </p>
                ) : null}
                <IntelImportsTable imports={data.data} />
              </>
            );
          }}
        </QueryFrame>
      </section>
      <IntelSources />
      <IntelOrganization slug={slug} />
      <IntelEpssHistory />
      <IntelSettingsForm />
    </section>
  );
}
