import type { SyncState } from '../../../contracts/console/sync';
import { formatDateTime } from '../lib/format';

/**
 * Why a replica's last sync failed, as the server words it (what failed and what to do), with
 * since when: its last success, or none yet, and the last attempt. The server's detail line
 * (the request, after a line break) is set apart in small print.
 */
export function SyncErrorText({ state }: { state: SyncState }) {
  if (!state.lastError) return <>—</>;
  const [sentence, ...detail] = state.lastError.split('\n');
  return (
    <>
      <p className="sync-error__sentence">{sentence}</p>
      <p className="sync-error__since">
        {state.lastSuccessAt ? `No sync has succeeded since ${formatDateTime(state.lastSuccessAt)}` : 'No sync has succeeded yet'}
        {state.lastAttemptAt ? `; last attempt ${formatDateTime(state.lastAttemptAt)}.` : '.'}
      </p>
      {detail.length > 0 ? <p className="sync-error__detail">{detail.join(' ')}</p> : null}
    </>
  );
}
