import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { FixBySettings } from '../../../contracts/console/fix-by';
import { type DeadlinePolicy, type UnknownCountsAs, deadlinePolicies, unknownCountsAs } from '../../../contracts/fix-by';
import { fixBySettingsQuery, useUpdateFixBySettings } from '../api/deadline-queries';
import { formatDateTime } from '../lib/format';
import { FormSaveOutcome, fieldMessages } from './form-save-outcome';
import { QueryFrame } from './query-state';

const policyLabels: Record<DeadlinePolicy, string> = {
  'severity-days': 'Days per severity (the deadlines above)',
  'bod-26-04': "CISA BOD 26-04's timelines (each finding's fix-by date)",
  'kev-due-date': "CISA's KEV due date, else days per severity",
};
const unknownLabels: Record<UnknownCountsAs, string> = { 'shorter-timeline': 'the value of the shorter timeline', 'longer-timeline': 'the value of the longer timeline' };

/** The organization's deadline policy, exposure tags and what unknown counts as, once loaded. */
export function FixBySettingsForm({ slug }: { slug: string }) {
  const settings = useQuery(fixBySettingsQuery(slug));
  const update = useUpdateFixBySettings(slug);
  return (
    <QueryFrame query={settings} what="the deadline policy">
      {(saved) => <SettingsFields key={JSON.stringify(saved)} saved={saved} update={update} />}
    </QueryFrame>
  );
}

/** The settings as a form: the server's messages show beside each field, and nothing is saved until every field is right. */
function SettingsFields({ saved, update }: { saved: FixBySettings; update: ReturnType<typeof useUpdateFixBySettings> }) {
  const [policy, setPolicy] = useState(saved.deadline_policy);
  const [tags, setTags] = useState(saved.exposure_tags.join(', '));
  const [unknownAs, setUnknownAs] = useState(saved.unknown_as);
  const id = useId();
  const errors = fieldMessages(update.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const exposureTags = tags.split(/[,;]/).map((tag) => tag.trim()).filter(Boolean);
    update.mutate({ deadline_policy: policy, exposure_tags: exposureTags, unknown_as: unknownAs });
  };
  return (
    <form className="form-card fix-by-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deadline policy</h2>
      <p className="hint">
        What due dates and overdue findings follow. BOD 26-04 reads In KEV, publicly exposed (the exposure tags), Automatable and Technical impact (CISA&apos;s Vulnrichment records, imported as
        threat intelligence); each finding&apos;s page shows the path to its date.{' '}
        {saved.updated_at ? `Saved ${formatDateTime(saved.updated_at)}.` : 'These are the defaults: nothing has been saved for this organization yet.'}
      </p>
      <div className="form-card__field">
        <label htmlFor={`${id}-policy`}>Deadlines follow</label>
        <select id={`${id}-policy`} value={policy} onChange={(event) => setPolicy(event.target.value as DeadlinePolicy)}>
          {deadlinePolicies.map((value) => (
            <option key={value} value={value}>
              {policyLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="form-card__field">
        <label htmlFor={`${id}-tags`}>Exposure tags (publicly exposed)</label>
        <input
          id={`${id}-tags`}
          type="text"
          value={tags}
          placeholder="internet-facing"
          aria-invalid={errors.exposure_tags ? true : undefined}
          aria-describedby={errors.exposure_tags ? `${id}-tags-error` : undefined}
          onChange={(event) => setTags(event.target.value)}
        />
        {errors.exposure_tags ? (
          <span className="field-error" id={`${id}-tags-error`}>
            {errors.exposure_tags}
          </span>
        ) : null}
      </div>
      <div className="form-card__field">
        <label htmlFor={`${id}-unknown`}>An input with no data counts as</label>
        <select id={`${id}-unknown`} value={unknownAs} onChange={(event) => setUnknownAs(event.target.value as UnknownCountsAs)}>
          {unknownCountsAs.map((value) => (
            <option key={value} value={value}>
              {unknownLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <FormSaveOutcome save={update} fields={['deadline_policy', 'exposure_tags', 'unknown_as']} savedClassName="sla-form__saved" saved="Saved: due dates and outcomes follow the new policy." />
      <div className="sla-form__actions">
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save deadline policy'}
        </button>
      </div>
    </form>
  );
}
