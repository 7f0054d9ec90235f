import express from 'express';
import { createApiKeyBodySchema } from '../../../contracts/console/api-keys.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** An organization's local API keys, under `/app/orgs/:slug/api-keys`: create, list, revoke. */
export function apiKeyRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/api-keys', (_req, res) => {
    res.json({ data: store.apiKeys.list(organizationOf(res).rowId) });
  });

  router.post('/api-keys', express.json({ limit: '4kb' }), (req, res) => {
    const body = createApiKeyBodySchema.safeParse(req.body ?? {});
    if (!body.success) {
      const issue = body.error.issues[0]!;
      throw new HttpError(400, `Invalid body field "${String(issue.path[0] ?? 'body')}": ${issue.message}`);
    }
    const org = organizationOf(res).rowId;
    const created = store.write(() => store.apiKeys.create(org, body.data.label));
    res.status(201).json(created);
  });

  router.delete('/api-keys/:keyId', (req, res) => {
    const keyId = uuidParam(req, 'keyId');
    const org = organizationOf(res).rowId;
    if (!store.write(() => store.apiKeys.revoke(org, keyId))) throw new HttpError(404, `No active API key ${keyId}`);
    res.status(204).end();
  });

  return router;
}
