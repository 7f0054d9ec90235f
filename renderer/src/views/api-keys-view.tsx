import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { CreatedApiKey } from '../../../contracts/console/api-keys';
import { useCreateApiKey, useRevokeApiKey } from '../api/api-key-mutations';
import { apiKeysQuery, sessionQuery } from '../api/console-queries';
import { ConfirmedAction } from '../components/confirmed-action';
import { CopyButton } from '../components/copy-button';
import { QueryError, QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatDateTime } from '../lib/format';

/** The organization's local API keys for tools on this machine: create (shown once), list, revoke. */
export function ApiKeysView({ slug }: { slug: string }) {
  const keys = useQuery(apiKeysQuery(slug));
  const session = useQuery(sessionQuery());
  const create = useCreateApiKey(slug);
  const revoke = useRevokeApiKey(slug);
  const [label, setLabel] = useState('');
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const labelId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(label, { onSuccess: () => setLabel('') });
  };

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">API keys</h1>
      </header>
      <p className="hint">
        Local tools and scripts call the loopback API at <code>{session.data?.apiBaseUrl ?? '…'}/v1</code> with one of these keys. A key
        reads only this organization; it is shown once, when it is created.
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor={labelId}>Label</label>
        <input id={labelId} value={label} maxLength={100} placeholder="What the key is for" onChange={(event) => setLabel(event.target.value)} />
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {create.isError ? <QueryError error={create.error} /> : null}
      {create.data ? <NewKey created={create.data} apiBaseUrl={session.data?.apiBaseUrl} /> : null}
      <QueryFrame query={keys} what="keys" empty={(data) => data.length === 0 && 'This organization has no API keys yet.'}>
        {(data) => (
          <table className="plain-table">
            <caption className="visually-hidden">API keys</caption>
            <TableHead columns={['Key', 'Label', 'Created', 'Status']} actions />
            <tbody>
              {data.map((key) => (
                <tr key={key.id}>
                  <td>
                    <code>rc_…{key.hint}</code>
                  </td>
                  <td>{key.label ?? '—'}</td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{key.revokedAt ? `Revoked ${formatDateTime(key.revokedAt)}` : 'Active'}</td>
                  <td>
                    {key.revokedAt ? null : (
                      <ConfirmedAction
                        confirming={confirming === key.id}
                        label="Revoke"
                        hiddenName={`key …${key.hint}`}
                        confirmLabel={`Confirm revoke …${key.hint}`}
                        onAsk={() => setConfirming(key.id)}
                        onCancel={() => setConfirming(undefined)}
                        onConfirm={() => revoke.mutate(key.id, { onSettled: () => setConfirming(undefined) })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryFrame>
      {revoke.isError ? <QueryError error={revoke.error} /> : null}
    </section>
  );
}

function NewKey({ created, apiBaseUrl }: { created: CreatedApiKey; apiBaseUrl: string | undefined }) {
  const curl = `curl -H "Authorization: Bearer ${created.key}" "${apiBaseUrl ?? 'http://127.0.0.1:7300'}/v1/endpoints?limit=10"`;
  return (
    <div className="new-key" role="region" aria-label="New API key">
      <p>
        <strong>Copy the new key now:</strong> it is not shown again.
      </p>
      <p className="new-key__value">
        <code data-testid="new-api-key">{created.key}</code> <CopyButton text={created.key} label="Copy key" />
      </p>
      <p>Try it:</p>
      <pre className="code-block">{curl}</pre>
      <CopyButton text={curl} label="Copy curl command" />
    </div>
  );
}
