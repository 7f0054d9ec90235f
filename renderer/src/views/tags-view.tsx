import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type Ref, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { CreateTagRuleInput, EndpointContextImportResult, EndpointTagListResponse, TagRule, TagRuleCondition } from '../../../contracts/console/endpoint-context';
import { endpointCriticalities, filterableOsFamilies, tagRuleConditionKinds, type TagRuleConditionKind } from '../../../contracts/enums';
import { errorMessage } from '../api/console-fetch';
import {
  endpointContextExportPath,
  endpointTagsQuery,
  tagRulesQuery,
  useCreateTagRule,
  useDeleteTagRule,
  useImportEndpointContext,
  useUpdateTagRule,
} from '../api/endpoint-context-queries';
import { CriticalityBadge } from '../components/endpoint-context-panel';
import { FileExportButton } from '../components/file-export-button';
import { fieldMessages, invalidInput, messageUnder } from '../components/form-save-outcome';
import { FileImportButton } from '../components/file-import-button';
import { QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatCount, formatCounted } from '../lib/format';
import { paths } from '../lib/paths';

/**
 * The organization's endpoint context: its tags with how many endpoints carry them (set by hand
 * or by a rule), its endpoints per criticality, its tag rules (made, edited, deleted here; the
 * one a link names shown), and the CSV file of what is set by hand, exported and imported.
 */
export function TagsView({ slug }: { slug: string }) {
  const [search] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const importing = useImportEndpointContext(slug);
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Tags and rules</h1>
      </header>
      <p className="hint">
        Tags and a criticality per endpoint are this installation&apos;s own: kept across syncs, never shown by the API. Set them on an endpoint&apos;s page, on
        every endpoint a filter of the <Link to={paths.list(slug, 'endpoints')}>endpoints list</Link> selects, from a CSV file, or by rules, which tag every
        endpoint they match as it is read, new ones from a sync included.
      </p>
      <div className="toolbar">
        <FileExportButton
          label="Export CSV…"
          path={endpointContextExportPath(slug)}
          suggestedName={`${slug}-endpoint-context.csv`}
          filter={{ name: 'CSV', extensions: ['csv'] }}
        />
        <FileImportButton label="Import CSV…" accept=".csv,text/csv" importing={importing} describe={importSummary} />
      </div>
      <TagCounts slug={slug} />
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">Tag rules</h2>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          New rule…
        </button>
        {creating ? <RuleForm slug={slug} onDone={() => setCreating(false)} /> : null}
        <RuleTable slug={slug} selected={search.get('rule') ?? undefined} />
      </section>
    </section>
  );
}

/** Every tag with its counts, and the endpoints per criticality. */
function TagCounts({ slug }: { slug: string }) {
  const tags = useQuery(endpointTagsQuery(slug));
  return (
    <QueryFrame query={tags} what="tags">
      {(data) => <TagCountsTable slug={slug} tags={data} />}
    </QueryFrame>
  );
}

function TagCountsTable({ slug, tags }: { slug: string; tags: EndpointTagListResponse }) {
  return (
    <>
      <p aria-label="Endpoints per criticality">
        {endpointCriticalities.map((criticality) => (
          <span key={criticality} className="criticality-count">
            <CriticalityBadge criticality={criticality} /> {formatCount(tags.criticality[criticality] ?? 0)}
          </span>
        ))}
      </p>
      {tags.data.length === 0 ? (
        <p className="state">No endpoint carries a tag yet: scopes that filter by tags are not evaluated until one does.</p>
      ) : (
        <table className="plain-table tags-table">
          <caption className="visually-hidden">Tags</caption>
          <TableHead columns={['Tag', 'Endpoints', 'Set by hand', 'From rules']} />
          <tbody>
            {tags.data.map((tag) => (
              <tr key={tag.tag}>
                <td>
                  <Link className="tag" to={paths.list(slug, 'endpoints', { tag: tag.tag })}>
                    {tag.tag}
                  </Link>
                </td>
                <td className="number">{formatCount(tag.endpoints)}</td>
                <td className="number">{formatCount(tag.explicit)}</td>
                <td className="number">{formatCount(tag.from_rules)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

const conditionLabels: Record<TagRuleConditionKind, string> = {
  hostname: 'Hostname matches',
  ip: 'IP is in',
  os_family: 'OS family is',
  os_name: 'OS name matches',
  agent: 'Agent',
};

/** A condition in words. */
function conditionText(condition: TagRuleCondition): string {
  switch (condition.kind) {
    case 'hostname':
    case 'os_name':
      return `${conditionLabels[condition.kind]} ${condition.pattern}`;
    case 'ip':
      return `${conditionLabels.ip} ${condition.cidr}`;
    case 'os_family':
      return `${conditionLabels.os_family} ${condition.os_family}`;
    case 'agent':
      return condition.has_agent ? 'Has an agent' : 'Has no agent';
  }
}

function RuleTable({ slug, selected }: { slug: string; selected: string | undefined }) {
  const rules = useQuery(tagRulesQuery(slug));
  const selectedRow = useRef<HTMLTableRowElement>(null);
  // A link to one rule (from an endpoint's tags) brings it into view. Braced: Chromium's
  // scrollIntoView answers a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    void selectedRow.current?.scrollIntoView({ block: 'center' });
  }, [selected, rules.data]);
  return (
    <QueryFrame query={rules} what="tag rules" empty={(data) => data.length === 0 && 'No tag rules yet.'}>
      {(data) => (
        <table className="plain-table rules-table">
          <caption className="visually-hidden">Tag rules</caption>
          <TableHead columns={['Tag', 'When', 'Note', 'Endpoints']} actions />
          <tbody>
            {data.map((rule) => (
              <RuleRow key={rule.id} slug={slug} rule={rule} selected={rule.id === selected} rowRef={rule.id === selected ? selectedRow : undefined} />
            ))}
          </tbody>
        </table>
      )}
    </QueryFrame>
  );
}

function RuleRow({ slug, rule, selected, rowRef }: { slug: string; rule: TagRule; selected: boolean; rowRef: Ref<HTMLTableRowElement> | undefined }) {
  const [editing, setEditing] = useState(false);
  const remove = useDeleteTagRule(slug);
  return (
    <>
      <tr ref={rowRef} aria-selected={selected || undefined} className={selected ? 'is-selected' : undefined}>
        <td>
          <Link className="tag" to={paths.list(slug, 'endpoints', { tag: rule.tag })}>
            {rule.tag}
          </Link>
        </td>
        <td>{rule.conditions.map(conditionText).join(' and ')}</td>
        <td>{rule.note}</td>
        <td className="number">{formatCount(rule.endpoints)}</td>
        <td>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit
          </button>{' '}
          <button type="button" onClick={() => remove.mutate(rule.id)} disabled={remove.isPending} aria-label={`Delete the rule tagging ${rule.tag}`}>
            Delete
          </button>
        </td>
      </tr>
      {editing ? (
        <tr>
          <td colSpan={5}>
            <RuleForm slug={slug} rule={rule} onDone={() => setEditing(false)} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A condition as the form edits it: its kind and one text value. */
interface ConditionFields {
  kind: TagRuleConditionKind;
  value: string;
}

function fieldsOf(condition: TagRuleCondition): ConditionFields {
  switch (condition.kind) {
    case 'hostname':
    case 'os_name':
      return { kind: condition.kind, value: condition.pattern };
    case 'ip':
      return { kind: 'ip', value: condition.cidr };
    case 'os_family':
      return { kind: 'os_family', value: condition.os_family };
    case 'agent':
      return { kind: 'agent', value: String(condition.has_agent) };
  }
}

/** The body's condition of the form's fields; the server checks the values. */
function conditionOf({ kind, value }: ConditionFields): TagRuleCondition {
  switch (kind) {
    case 'hostname':
    case 'os_name':
      return { kind, pattern: value };
    case 'ip':
      return { kind, cidr: value };
    case 'os_family':
      return { kind, os_family: value as (typeof filterableOsFamilies)[number] };
    case 'agent':
      return { kind, has_agent: value === 'true' };
  }
}

const defaultValue: Record<TagRuleConditionKind, string> = { hostname: '', ip: '', os_family: 'windows', os_name: '', agent: 'true' };

/** Makes a rule, or edits `rule`. */
function RuleForm({ slug, rule, onDone }: { slug: string; rule?: TagRule; onDone: () => void }) {
  const create = useCreateTagRule(slug);
  const update = useUpdateTagRule(slug);
  const saving = rule ? update : create;
  const [tag, setTag] = useState(rule?.tag ?? '');
  const [note, setNote] = useState(rule?.note ?? '');
  const [conditions, setConditions] = useState<ConditionFields[]>(rule?.conditions.map(fieldsOf) ?? [{ kind: 'hostname', value: '' }]);
  const id = useId();
  const errors = fieldMessages(saving.error);
  // Each condition is one row of inputs: a refusal of any of its fields (`conditions.0.cidr`) is shown beside it.
  const conditionError = (index: number) => messageUnder(errors, `conditions.${index}`);
  const marked = Boolean(errors.tag || errors.note || conditions.some((_, index) => conditionError(index)));
  const fieldError = (field: 'tag' | 'note') =>
    errors[field] ? (
      <span className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </span>
    ) : null;
  const change = (index: number, fields: ConditionFields) => setConditions(conditions.map((each, at) => (at === index ? fields : each)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateTagRuleInput = { tag, note, conditions: conditions.map(conditionOf) };
    if (rule) update.mutate({ id: rule.id, body }, { onSuccess: onDone });
    else create.mutate(body, { onSuccess: onDone });
  };
  return (
    <form className="rule-form" onSubmit={submit} aria-label={rule ? `Edit the rule tagging ${rule.tag}` : 'New tag rule'}>
      <label htmlFor={`${id}-tag`}>Tag</label>
      <input id={`${id}-tag`} value={tag} onChange={(event) => setTag(event.target.value)} required maxLength={64} {...invalidInput(errors.tag, `${id}-tag-error`)} />
      {fieldError('tag')}
      <fieldset>
        <legend>Every endpoint where all of these hold</legend>
        {conditions.map((condition, index) => (
          <div className="rule-form__condition" key={index}>
            <select
              aria-label={`Condition ${index + 1}`}
              value={condition.kind}
              onChange={(event) => {
                const kind = event.target.value as TagRuleConditionKind;
                change(index, { kind, value: defaultValue[kind] });
              }}
            >
              {tagRuleConditionKinds.map((kind) => (
                <option key={kind} value={kind}>
                  {conditionLabels[kind]}
                </option>
              ))}
            </select>
            <ConditionValue
              index={index}
              condition={condition}
              onChange={(value) => change(index, { ...condition, value })}
              errorId={conditionError(index) ? `${id}-condition-${index}-error` : undefined}
            />
            {conditions.length > 1 ? (
              <button type="button" onClick={() => setConditions(conditions.filter((_, at) => at !== index))} aria-label={`Remove condition ${index + 1}`}>
                Remove
              </button>
            ) : null}
            {conditionError(index) ? (
              <span className="field-error" id={`${id}-condition-${index}-error`}>
                {conditionError(index)}
              </span>
            ) : null}
          </div>
        ))}
        <button type="button" onClick={() => setConditions([...conditions, { kind: 'hostname', value: '' }])}>
          Add a condition
        </button>
      </fieldset>
      <label htmlFor={`${id}-note`}>Note</label>
      <input id={`${id}-note`} value={note} onChange={(event) => setNote(event.target.value)} maxLength={500} {...invalidInput(errors.note, `${id}-note-error`)} />
      {fieldError('note')}
      <div className="form-actions">
        <button type="submit" disabled={saving.isPending}>
          {rule ? 'Save' : 'Make the rule'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {saving.isError ? (
        <p role="alert" className="field-error">
          Not saved: {marked ? 'correct the fields marked above.' : errorMessage(saving.error, 'the server could not be reached.')}
        </p>
      ) : null}
    </form>
  );
}

/** A condition's value; `errorId` names the refusal of it shown beside, when there is one. */
function ConditionValue({ index, condition, onChange, errorId }: { index: number; condition: ConditionFields; onChange: (value: string) => void; errorId?: string }) {
  const label = `Value of condition ${index + 1}`;
  const described = errorId ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  if (condition.kind === 'os_family') {
    return (
      <select aria-label={label} value={condition.value} onChange={(event) => onChange(event.target.value)} {...described}>
        {filterableOsFamilies.map((family) => (
          <option key={family} value={family}>
            {family}
          </option>
        ))}
      </select>
    );
  }
  if (condition.kind === 'agent') {
    return (
      <select aria-label={label} value={condition.value} onChange={(event) => onChange(event.target.value)} {...described}>
        <option value="true">has an agent</option>
        <option value="false">has no agent</option>
      </select>
    );
  }
  const placeholder = condition.kind === 'ip' ? '10.20.0.0/16' : condition.kind === 'hostname' ? 'srv-*' : 'Windows Server*';
  return <input aria-label={label} value={condition.value} onChange={(event) => onChange(event.target.value)} placeholder={placeholder} required {...described} />;
}

const importSummary = ({ lines, changed, endpoints }: EndpointContextImportResult) =>
  `Imported ${formatCounted(lines, 'line')}: ${formatCount(changed)} of ${formatCounted(endpoints, 'endpoint')} changed.`;
