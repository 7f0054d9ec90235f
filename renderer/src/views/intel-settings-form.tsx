import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { IntelSettings } from '../../../contracts/console/threat-intel-changes';
import { intelSettingsQuery, useUpdateIntelSettings } from '../api/threat-intel-queries';
import { FormSaveOutcome, fieldMessages, invalidInput } from '../components/form-save-outcome';
import { QueryFrame } from '../components/query-state';

/** The EPSS threshold whose crossings each import records and the rise the rising filter keeps, once loaded. */
export function IntelSettingsForm() {
  const settings = useQuery(intelSettingsQuery());
  const update = useUpdateIntelSettings();
  return (
    <QueryFrame query={settings} what="the intelligence settings">
      {(saved) => <SettingsFields key={JSON.stringify(saved)} saved={saved} update={update} />}
    </QueryFrame>
  );
}

type SettingKey = keyof IntelSettings;

const fields: { key: SettingKey; label: string; hint: string }[] = [
  {
    key: 'epss_threshold',
    label: 'EPSS threshold',
    hint: 'Each EPSS import records, for every organization, the CVEs of its open findings whose score crossed this value since the previous import, up or down.',
  },
  { key: 'epss_rise', label: 'Rising by at least', hint: 'The findings list’s “EPSS rising” filter keeps the findings whose CVE’s EPSS rose by this much or more over 7 days.' },
];

/** A number as typed; anything else goes as text, for the server (the one place of the rule) to refuse with its message. */
const valueOf = (text: string) => (/^\d*\.?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

/** The two settings, each a number from 0.0001 to 1; what the server refuses is said beside the field, and nothing is saved. */
function SettingsFields({ saved, update }: { saved: IntelSettings; update: ReturnType<typeof useUpdateIntelSettings> }) {
  const id = useId();
  const [draft, setDraft] = useState<Record<SettingKey, string>>({ epss_threshold: String(saved.epss_threshold), epss_rise: String(saved.epss_rise) });
  const messages = fieldMessages(update.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ epss_threshold: valueOf(draft.epss_threshold), epss_rise: valueOf(draft.epss_rise) } as IntelSettings);
  };
  return (
    <form className="form-card intel-settings" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>EPSS settings</h2>
      {fields.map(({ key, label, hint }) => (
        <div className="form-card__field" key={key}>
          <label htmlFor={`${id}-${key}`}>{label} (0.0001 to 1)</label>
          <input
            id={`${id}-${key}`}
            inputMode="decimal"
            value={draft[key]}
            onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
            {...invalidInput(messages[key], `${id}-${key}-error`, `${id}-${key}-hint`)}
          />
          <span className="hint" id={`${id}-${key}-hint`}>
            {hint}
          </span>
          {messages[key] ? (
            <span id={`${id}-${key}-error`} className="field-error">
              {messages[key]}
            </span>
          ) : null}
        </div>
      ))}
      <button type="submit" disabled={update.isPending}>
        Save
      </button>
      <FormSaveOutcome save={update} fields={['epss_threshold', 'epss_rise']} savedClassName="intel-settings__saved" saved="Saved." />
    </form>
  );
}
