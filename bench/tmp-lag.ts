import { Store } from '../server/store/store.js';
import { readRemoteTenant } from '../server/organizations/manage-organizations.js';
import { keyFileSealer } from '../server/secrets/key-file-sealer.js';
import { syncOrganization } from '../server/sync/sync-organization.js';
const store = await Store.open({ dataDir: '/tmp/replica-large', command: 'lag' });
const org = store.organizations.list().find((o) => o.kind === 'replica')!;
const remote = readRemoteTenant(store, keyFileSealer('/tmp/replica-large/sealing.key'), org)!;
await new Promise((r) => setTimeout(r, 8000));
let phase = 'start';
let last = performance.now();
const timer = setInterval(() => { const now = performance.now(); if (now - last > 40) console.log('lag', (now - last).toFixed(0), 'ms during/after', phase); last = now; }, 5);
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const report = await syncOrganization(store, org, remote, { onProgress: (p) => (phase = `${p.phase} ${p.collection ?? ''}`) });
  phase = 'synced'; console.log('sync', report.mode, (performance.now() - t).toFixed(0), 'ms');
  await store.inventories.collect(); phase = 'collected';
  await new Promise((r) => setTimeout(r, 7000)); phase = 'idle';
}
clearInterval(timer);
store.close();
