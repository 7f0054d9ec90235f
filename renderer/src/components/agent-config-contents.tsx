import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AgentConfigPreview } from '../../../contracts/console/agent-settings';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import { agentConfigPreviewQuery } from '../api/agent-config-queries';
import { agentSettingFieldAnchor } from './agent-settings-form';
import { FieldList } from './field-list';
import { Loading, QueryError } from './query-state';

/** The settings the agent settings form sets, as the view names them. */
const formSettingNames: Partial<Record<string, string>> = { serverUrl: 'the server URL', teamId: 'the Team ID', bundleId: 'the bundle identifier' };
/** A setting the server says is missing, in words. */
const settingName = (field: string) => formSettingNames[field] ?? (field === 'enrollmentSecret' ? 'the enrollment secret' : field);

/** A value of the file, or why there is none. */
function settingValue(preview: AgentConfigPreview, field: 'serverUrl' | 'teamId' | 'bundleId') {
  const value = preview[field];
  if (value !== null) return <code>{value}</code>;
  return preview.missing.includes(field) ? <span className="agent-contents__unset">Not set</span> : null;
}

/**
 * What the file of the chosen platform and profile will hold, as the server says before making
 * it: its settings, its payloads or files, whether the enrollment secret is inside, and what
 * follows for whoever handles it.
 */
export function AgentConfigContents({ slug, platform, profile }: { slug: string; platform: AgentPlatform; profile: AgentProfile }) {
  const preview = useQuery(agentConfigPreviewQuery(slug, platform, profile));
  if (preview.isPending) return <Loading what="what the file holds" />;
  if (preview.isError) return <QueryError error={preview.error} onRetry={() => void preview.refetch()} />;
  const file = preview.data;
  if (file.source === 'remote') {
    return (
      <p className="notice" role="note">
        This organization is a replica: its remote tenant makes this file, with the remote&apos;s own settings and secret, and the console passes
        it on as it is. Organization id: <code>{file.organizationId}</code>.
      </p>
    );
  }
  const rows: [string, ReactNode][] = [
    ['Server URL', settingValue(file, 'serverUrl')],
    ['Organization id', <code key="id">{file.organizationId}</code>],
  ];
  // The Team ID and bundle id concern the macOS agent: shown where the file carries them or needs them.
  if (file.teamId !== null || file.missing.includes('teamId')) rows.push(['Team ID', settingValue(file, 'teamId')]);
  if (file.bundleId !== null) rows.push(['Bundle identifier', settingValue(file, 'bundleId')]);
  rows.push(
    [
      profile === 'config' ? 'Files in the ZIP' : 'Payloads',
      <ul className="agent-contents__list" key="contents">
        {file.contents.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>,
    ],
    ['Enrollment secret', file.holdsEnrollmentSecret ? <strong key="secret">Inside the file</strong> : 'Not inside'],
  );
  return (
    <>
      <FieldList fields={rows} />
      {file.holdsEnrollmentSecret ? (
        <div className="notice notice--warning notice--secret" role="note" aria-label="This file is a secret">
          <strong>This file is a secret.</strong> It holds the organization&apos;s enrollment secret, with which any device can enroll as one of
          yours. Handle it as a secret: hand it only to your MDM or configuration management, never by e-mail or chat, and delete the copies you no
          longer need.
        </div>
      ) : null}
      {file.needsUserApprovedMdm ? (
        <p className="notice" role="note">
          Its privacy (full disk access) and login-item payloads take effect only when a user-approved MDM installs the profile: macOS does not
          apply them from a profile installed by hand.
        </p>
      ) : null}
    </>
  );
}

/**
 * What must be set before the file can be made, each setting of the form linked to its field.
 * Its id describes the disabled download button.
 */
export function MissingSettings({ id, missing }: { id: string; missing: string[] }) {
  return (
    <p className="notice notice--warning agent-contents__missing" id={id} role="note">
      <strong>No file yet.</strong> Before this file can be made, set{' '}
      {missing.map((field, index) => (
        <span key={field}>
          {index === 0 ? '' : index === missing.length - 1 ? ' and ' : ', '}
          {field in formSettingNames ? <a href={`#${agentSettingFieldAnchor(field)}`}>{settingName(field)}</a> : settingName(field)}
        </span>
      ))}
      .
    </p>
  );
}
