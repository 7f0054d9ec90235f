import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AgentSettingsView, UpdateAgentSettingsBody } from '../../../contracts/console/agent-settings';
import { agentSettingsQuery, useUpdateAgentSettings } from '../api/agent-config-queries';
import { FormSaveOutcome, fieldMessages } from './form-save-outcome';
import { QueryFrame } from './query-state';
import { CliCommandText } from './cli-command-text';

/** The anchor of the form, which the rest of the view (and other views) link to. */
export const agentSettingsAnchor = 'agent-settings';

/** The anchor of one field of the form, for a link that says what to set. */
export const agentSettingFieldAnchor = (field: string) => `${agentSettingsAnchor}-${field}`;

const fields = [
  {
    name: 'serverUrl',
    label: 'Server URL',
    placeholder: 'https://agents.example.com',
    hint: 'The address every agent reaches to enroll and report: https, or http only for a host that is not this computer.',
  },
  {
    name: 'teamId',
    label: 'Team ID',
    placeholder: 'Q7M3K9D2XP',
    hint: "The Apple Developer Team ID the macOS agent is signed with (10 letters A–Z and digits): the full disk access grant pins it.",
  },
  {
    name: 'bundleId',
    label: 'Bundle identifier',
    placeholder: 'com.example.agent',
    hint: "The macOS agent's bundle identifier (reverse DNS); empty for the agent's default.",
  },
] as const;

type FieldName = (typeof fields)[number]['name'];
type Draft = Record<FieldName, string>;

const draftOf = (settings: AgentSettingsView): Draft => ({ serverUrl: settings.serverUrl ?? '', teamId: settings.teamId ?? '', bundleId: settings.bundleId });

/** The organization's agent settings as a form, once they are loaded. */
export function AgentSettingsForm({ slug }: { slug: string }) {
  const settings = useQuery(agentSettingsQuery(slug));
  // Held here, so that what the last save said outlives the fields' fresh start after it.
  const update = useUpdateAgentSettings(slug);
  return (
    <div className="form-card agent-settings" id={agentSettingsAnchor}>
      <h2 id={`${agentSettingsAnchor}-title`}>Agent settings</h2>
      <QueryFrame query={settings} what="the agent settings">
        {/* Keyed by what is saved: a save starts the draft afresh from it. */}
        {(saved) => <AgentSettingsFields key={JSON.stringify(saved)} saved={saved} update={update} />}
      </QueryFrame>
    </div>
  );
}

/**
 * The server URL, Team ID and bundle identifier, saved together. The browser's own validation is
 * off: the server's messages (the one place of the rules) show beside each field, and nothing is
 * saved until every field is right. An emptied field clears its value.
 */
function AgentSettingsFields({ saved, update }: { saved: AgentSettingsView; update: ReturnType<typeof useUpdateAgentSettings> }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const errors = fieldMessages(update.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const valueOf = (name: FieldName) => draft[name].trim() || null;
    const body: UpdateAgentSettingsBody = { serverUrl: valueOf('serverUrl'), teamId: valueOf('teamId'), bundleId: valueOf('bundleId') };
    update.mutate(body);
  };

  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${agentSettingsAnchor}-title`}>
      <p className="hint">
        What this organization&apos;s agent configuration files tell the agents, kept here with the organization and across syncs. The organization
        id and the enrollment secret are not set here: the id is the organization&apos;s own, and the enrollment secret is managed with{' '}
        <CliCommandText args="orgs enrollment-secret" />.
      </p>
      {saved.isDemo ? (
        <p className="notice agent-settings__demo" role="note">
          <span className="badge badge--demo">Demo</span> These are the demo organization&apos;s fictitious settings: well-formed, so that a file can
          be tried at once, but they point at no real server. Set your own before a rollout.
        </p>
      ) : null}
      {saved.warnings.length > 0 ? (
        <div className="notice notice--warning" role="note" aria-label="Warnings about these settings">
          <ul>
            {saved.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="agent-settings__fields">
        {fields.map((field) => {
          const id = agentSettingFieldAnchor(field.name);
          const error = errors[field.name];
          return (
            <div className="form-card__field" key={field.name}>
              <label htmlFor={id}>{field.label}</label>
              <input
                id={id}
                name={field.name}
                type="text"
                value={draft[field.name]}
                placeholder={field.placeholder}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
                onChange={(event) => setDraft({ ...draft, [field.name]: event.target.value })}
              />
              {error ? (
                <span className="field-error" id={`${id}-error`}>
                  {error}
                </span>
              ) : null}
              <span className="agent-settings__hint" id={`${id}-hint`}>
                {field.hint}
              </span>
            </div>
          );
        })}
      </div>
      <FormSaveOutcome
        save={update}
        fields={fields.map((field) => field.name)}
        savedClassName="agent-settings__saved"
        saved="Saved: the files made from now on carry these settings."
      />
      <button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
