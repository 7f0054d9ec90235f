import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import { agentConfigPreviewQuery } from '../api/agent-config-queries';
import { organizationsQuery } from '../api/console-queries';
import { AgentConfigContents, MissingSettings } from '../components/agent-config-contents';
import { AgentSettingsForm } from '../components/agent-settings-form';
import { SecretStorageNote } from '../components/secret-storage-note';
import { desktopBridge } from '../desktop-bridge';
import { type SaveOutcome, saveConsoleFile } from '../lib/save-download';
import '../styles/agent-config.css';
import { CliCommandText } from '../components/cli-command-text';

const platforms = ['macos', 'windows', 'linux'] as const satisfies readonly AgentPlatform[];
const profiles: { value: AgentProfile; label: string; macosOnly: boolean }[] = [
  { value: 'config', label: 'Native configuration files (ZIP with signatures)', macosOnly: false },
  { value: 'mdm-full', label: 'MDM profile: settings and permissions (.mobileconfig)', macosOnly: true },
  { value: 'mdm-permissions', label: 'MDM profile: permissions only, no secret (.mobileconfig)', macosOnly: true },
];

/**
 * The organization's agent settings and its signed agent configuration files, for MDM rollout:
 * what the chosen file will hold is shown before it is saved, and a file that cannot be made
 * yet says what to set instead of offering a download.
 */
export function AgentConfigView({ slug }: { slug: string }) {
  const organizations = useQuery(organizationsQuery());
  const organization = organizations.data?.find((o) => o.slug === slug);
  const [platform, setPlatform] = useState<AgentPlatform>('macos');
  const [profile, setProfile] = useState<AgentProfile>('config');
  const preview = useQuery(agentConfigPreviewQuery(slug, platform, profile));
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | undefined>(undefined);
  const id = useId();
  const available = profiles.filter((p) => platform === 'macos' || !p.macosOnly);
  const extension = profile === 'config' ? 'zip' : 'mobileconfig';
  const missing = preview.data?.missing ?? [];

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
    <section className="view agent-config" aria-labelledby="view-title">
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
          <CliCommandText args={`orgs enrollment-secret --org ${slug} --rotate`} />.
        </div>
      ) : null}
      <div className="agent-config__panes">
        {/* A replica's files are its remote tenant's, made with the remote's settings: nothing to set here. */}
        {organization?.kind === 'local' ? <AgentSettingsForm slug={slug} /> : null}
        <section className="form-card agent-file" aria-labelledby={`${id}-file`}>
          <h2 id={`${id}-file`}>Configuration file</h2>
          <div className="filter-bar">
            <div className="filter">
              <label htmlFor={`${id}-platform`}>Platform</label>
              <select
                id={`${id}-platform`}
                value={platform}
                onChange={(event) => {
                  const next = event.target.value as AgentPlatform;
                  setPlatform(next);
                  setOutcome(undefined);
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
              <label htmlFor={`${id}-profile`}>Profile</label>
              <select
                id={`${id}-profile`}
                value={profile}
                onChange={(event) => {
                  setProfile(event.target.value as AgentProfile);
                  setOutcome(undefined);
                }}
              >
                {available.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <h3 className="agent-file__subtitle">What the file holds</h3>
          <AgentConfigContents slug={slug} platform={platform} profile={profile} />
          {missing.length > 0 ? <MissingSettings id={`${id}-missing`} missing={missing} /> : null}
          <div className="agent-file__actions">
            <button
              type="button"
              onClick={() => void save()}
              disabled={saving || missing.length > 0}
              aria-describedby={missing.length > 0 ? `${id}-missing` : undefined}
            >
              {saving ? 'Signing…' : desktopBridge() ? 'Save…' : 'Download'}
            </button>
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
          </div>
        </section>
      </div>
    </section>
  );
}
