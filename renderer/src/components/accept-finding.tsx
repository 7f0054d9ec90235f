import { useState } from 'react';
import type { ConsoleItem } from '../../../contracts/collections';
import type { ExceptionScope } from '../../../contracts/console/exceptions';
import { useCreateException } from '../api/exception-queries';
import { ExceptionForm, newExceptionFields, startOfLocalDate } from './exception-form';
import { ExceptionLink } from './exception-mark';

type Finding = ConsoleItem<'findings'>;
/** An exception the detail offers: its button's words and what it covers. */
interface Choice {
  label: string;
  scope: ExceptionScope;
}

/** The exceptions a finding's detail offers: the finding alone, its CVE on its endpoint, its CVE everywhere. */
function choicesFor(finding: Finding): Choice[] {
  const choices: Choice[] = [{ label: 'Accept this finding', scope: { kind: 'finding', finding_id: finding.id } }];
  if (finding.endpoint_id) {
    const host = finding.endpoint_hostname ?? 'this endpoint';
    choices.push({ label: `Accept ${finding.cve_id} on ${host}`, scope: { kind: 'cve_on_endpoints', cve_id: finding.cve_id, endpoint_ids: [finding.endpoint_id] } });
  }
  choices.push({ label: `Accept ${finding.cve_id} everywhere`, scope: { kind: 'cve', cve_id: finding.cve_id } });
  return choices;
}

/**
 * Accepting a finding's risk from its detail: one button per scope, which opens the exception's
 * reason, note and expiry; once made, the finding is marked (its detail is asked again) and the
 * new exception is linked.
 */
export function AcceptFinding({ slug, finding }: { slug: string; finding: Finding }) {
  const create = useCreateException(slug);
  const [chosen, setChosen] = useState<Choice | undefined>(undefined);
  return (
    <section className="accept-finding" aria-label="Exceptions">
      {chosen ? (
        <ExceptionForm
          title={chosen.label}
          initial={newExceptionFields()}
          submitLabel="Make the exception"
          pending={create.isPending}
          error={create.error}
          onCancel={() => setChosen(undefined)}
          onSubmit={(fields) =>
            create.mutate(
              { scope: chosen.scope, reason: fields.reason, note: fields.note, expires_at: startOfLocalDate(fields.expiresOn) },
              { onSuccess: () => setChosen(undefined) },
            )
          }
        />
      ) : (
        <div className="accept-finding__choices">
          {choicesFor(finding).map((choice) => (
            <button
              key={choice.scope.kind}
              type="button"
              onClick={() => {
                create.reset();
                setChosen(choice);
              }}
            >
              {choice.label}…
            </button>
          ))}
        </div>
      )}
      {create.data && !chosen ? (
        <p role="status">
          Exception made: <ExceptionLink slug={slug} exception={create.data} />.
        </p>
      ) : null}
    </section>
  );
}
