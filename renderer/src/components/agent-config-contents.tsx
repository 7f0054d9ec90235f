import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AgentConfigPreview, AgentFileSetting } from '../../../contracts/console/agent-settings';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import { agentConfigPreviewQuery } from '../api/agent-config-queries';
import { agentSettingFieldAnchor } from './agent-settings-form';
import { FieldList } from './field-list';
import { QueryFrame } from './query-state';

/** The settings the agent settings form sets, as the view names them. */
const formSettingNames: Partial<Record<string, string>> = { serverUrl: 'the server URL', teamId: 'the Team ID', bundleId: 'the bundle identifier' };
/** A setting the server says is missing, in words. */
const settingName = (field: string) => formSettingNames[field] ?? (field === 'enrollmentSecret' ? 'the enrollment secret' : field);

/** How the view names each setting a file can carry. */
const carriedSettingNames: Record<AgentFileSetting, string> = {
  serverUrl: 'server URL',
  teamId: 'Team ID',
  bundleId: 'bundle identifier',
  enrollmentSecret: 'enrollment secret',
};

/** Settings as a sentence lists them. */
const settingList = new Intl.ListFormat('en', { type: 'conjunction' });

/** A value of the file; "Not set" for one it carries but that is missing, "Not in this file" for one it does not carry. */
function settingValue(preview: AgentConfigPreview, field: 'serverUrl' | 'teamId' | 'bundleId') {
  const value = preview[field];
  if (value !== null) return <code>{value}</code>;
  // Plain, as "Not inside" is for the secret: a setting the file does not carry is no fault.
  if (!preview.carries.includes(field)) return 'Not in this file';
  return preview.missing.includes(field) ? <span className="agent-contents__unset">Not set</span> : null;
}

/** The secret's warning and the MDM note, which hold for a replica's file as for a local one. */
function HandlingNotes({ file }: { file: AgentConfigPreview }) {
  return (
    <>
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
 * What the file of the chosen platform and profile will hold, as the server says before making
 * it, from the description the file is made from: the settings it carries (and only those), its
 * payloads or files, whether the enrollment secret is inside, and what follows for whoever
 * handles it. A replica's file is its remote tenant's: the view names no value and no id of its own.
 */
export function AgentConfigContents({ slug, platform, profile }: { slug: string; platform: AgentPlatform; profile: AgentProfile }) {
  const preview = useQuery(agentConfigPreviewQuery(slug, platform, profile));
  return (
    <QueryFrame query={preview} what="what the file holds">
      {(file) => <FileContents file={file} profile={profile} />}
    </QueryFrame>
  );
}

/** What the file holds, as the server described it. */
function FileContents({ file, profile }: { file: AgentConfigPreview; profile: AgentProfile }) {
  if (file.source === 'remote') {
    const settings = file.carries.map((setting) => carriedSettingNames[setting]);
    return (
      <>
        <p className="notice" role="note">
          This organization is a replica: its remote tenant makes this file, with the remote&apos;s own settings and secret, and the console passes
          it on as it is. The organization id and slug the file records are the remote tenant&apos;s, not this replica&apos;s. It carries the
          remote&apos;s {settingList.format(settings)}.
        </p>
        <HandlingNotes file={file} />
      </>
    );
  }
  const rows: [string, ReactNode][] = [
    ['Server URL', settingValue(file, 'serverUrl')],
    ['Organization id', <code key="id">{file.organizationId}</code>],
  ];
  // The Team ID and bundle id concern the macOS agent: shown where the file carries them.
  if (file.carries.includes('teamId')) rows.push(['Team ID', settingValue(file, 'teamId')]);
  if (file.carries.includes('bundleId')) rows.push(['Bundle identifier', settingValue(file, 'bundleId')]);
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
      <HandlingNotes file={file} />
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
