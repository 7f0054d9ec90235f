import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { IntelSettings } from '../../../contracts/console/threat-intel-changes';
import { intelSettingsQuery, useUpdateIntelSettings } from '../api/threat-intel-queries';
import { FormSaveOutcome, fieldMessages, invalidInput } from '../components/form-save-outcome';
import { QueryFrame } from '../components/query-state';

/** The EPSS threshold whose crossings each import records, once loaded. */
export function IntelSettingsForm() {
  const settings = useQuery(intelSettingsQuery());
  const update = useUpdateIntelSettings();
  return (
    <QueryFrame query={settings} what="the intelligence settings">
      {(saved) => <ThresholdField key={saved.epss_threshold} saved={saved} update={update} />}
    </QueryFrame>
  );
}

/** The threshold, typed as a number from 0.0001 to 1; what the server refuses is said beside it, and nothing is saved. */
function ThresholdField({ saved, update }: { saved: IntelSettings; update: ReturnType<typeof useUpdateIntelSettings> }) {
  const id = useId();
  const [draft, setDraft] = useState(String(saved.epss_threshold));
  const message = fieldMessages(update.error).epss_threshold;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = draft.trim();
    // A number as typed; anything else goes as text, for the server (the one place of the rule) to refuse with its message.
    update.mutate({ epss_threshold: (/^\d*\.?\d+$/.test(trimmed) ? Number(trimmed) : trimmed) as number });
  };
  return (
    <form className="form-card intel-settings" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>EPSS threshold</h2>
      <p className="hint" id={`${id}-hint`}>
        Each EPSS import records, for every organization, the CVEs of its open findings whose score crossed this value since the previous import, up or down.
      </p>
      <label htmlFor={id}>Threshold (0.0001 to 1)</label>
      <input id={id} inputMode="decimal" value={draft} onChange={(event) => setDraft(event.target.value)} {...invalidInput(message, `${id}-error`, `${id}-hint`)} />
      {message ? (
        <span id={`${id}-error`} className="field-error">
          {message}
        </span>
      ) : null}
      <button type="submit" disabled={update.isPending}>
        Save
      </button>
      <FormSaveOutcome save={update} fields={['epss_threshold']} savedClassName="intel-settings__saved" saved={`Saved: ${saved.epss_threshold}.`} />
    </form>
  );
}
