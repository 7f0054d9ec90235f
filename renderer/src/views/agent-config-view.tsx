import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import { organizationsQuery } from '../api/console-queries';
import { SecretStorageNote } from '../components/secret-storage-note';
import { desktopBridge } from '../desktop-bridge';
import { type SaveOutcome, saveConsoleFile } from '../lib/save-download';

const platforms = ['macos', 'windows', 'linux'] as const satisfies readonly AgentPlatform[];
const profiles: { value: AgentProfile; label: string; macosOnly: boolean }[] = [
  { value: 'config', label: 'Native configuration files (ZIP with signatures)', macosOnly: false },
  { value: 'mdm-full', label: 'MDM profile: settings and permissions (.mobileconfig)', macosOnly: true },
  { value: 'mdm-permissions', label: 'MDM profile: permissions only, no secret (.mobileconfig)', macosOnly: true },
];

/** Saves a signed agent configuration file of the organization, for MDM rollout. */
export function AgentConfigView({ slug }: { slug: string }) {
  const organizations = useQuery(organizationsQuery());
  const organization = organizations.data?.find((o) => o.slug === slug);
  const [platform, setPlatform] = useState<AgentPlatform>('macos');
  const [profile, setProfile] = useState<AgentProfile>('config');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | undefined>(undefined);
  const platformId = useId();
  const profileId = useId();
  const available = profiles.filter((p) => platform === 'macos' || !p.macosOnly);
  const extension = profile === 'config' ? 'zip' : 'mobileconfig';

  const save = async () => {
    setSaving(true);
    setOutcome(undefined);
    try {
      setOutcome(
        await saveConsoleFile({
          path: `/app/orgs/${encodeURIComponent(slug)}/agent-config?platform=${platform}&profile=${profile}`,
          suggestedName: `remediation-agent-${slug}-${platform}-${profile}.${extension}`,
          filter: { name: profile === 'config' ? 'ZIP archive' : 'Configuration profile', extensions: [extension] },
        }),
      );
    } catch {
      setOutcome({ saved: false, message: 'The file could not be saved.' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Agent configuration</h1>
      </header>
      <p className="hint">
        A configuration file for the agent, signed with this organization&apos;s certificate, to roll out with your MDM or configuration
        management.
      </p>
      <SecretStorageNote />
      {organization && !organization.hasEnrollmentSecret && organization.kind === 'local' ? (
        <div className="notice" role="note">
          This organization has no enrollment secret, so no configuration can be generated. Set one with{' '}
          <code>remediation-console orgs enrollment-secret --org {slug} --rotate</code>.
        </div>
      ) : null}
      <div className="filter-bar">
        <div className="filter">
          <label htmlFor={platformId}>Platform</label>
          <select
            id={platformId}
            value={platform}
            onChange={(event) => {
              const next = event.target.value as AgentPlatform;
              setPlatform(next);
              if (next !== 'macos') setProfile('config');
            }}
          >
            {platforms.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={profileId}>Profile</label>
          <select id={profileId} value={profile} onChange={(event) => setProfile(event.target.value as AgentProfile)}>
            {available.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => void save()} disabled={saving}>
          {saving ? 'Signing…' : desktopBridge() ? 'Save…' : 'Download'}
        </button>
      </div>
      {outcome?.saved ? (
        <p role="status">
          {outcome.path ? `Saved to ${outcome.path}. ` : 'Downloaded. '}
          {outcome.path ? (
            <button type="button" className="link-button" onClick={() => void desktopBridge()?.revealInFolder(outcome.path!)}>
              Show in folder
            </button>
          ) : null}
        </p>
      ) : outcome?.message ? (
        <p role="alert" className="state--error">
          {outcome.message}
        </p>
      ) : null}
    </section>
  );
}
