import * as z from 'zod';
import { dateTimeSchema, uuidSchema } from '../common.js';

/** A local API key as listed; the key itself is shown once, when it is created. */
export const consoleApiKeySchema = z
  .object({
    id: uuidSchema,
    /** The key's last four characters, so that a user can tell keys apart. */
    hint: z.string(),
    label: z.string().nullable(),
    createdAt: dateTimeSchema,
    revokedAt: dateTimeSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ConsoleApiKey = z.infer<typeof consoleApiKeySchema>;

/** `GET /app/orgs/:slug/api-keys`. */
export const apiKeyListSchema = z.object({ data: z.array(consoleApiKeySchema) }).meta({ id: 'ApiKeyList' });

/** `POST /app/orgs/:slug/api-keys` body. */
export const createApiKeyBodySchema = z
  .strictObject({
    label: z.string().trim().max(100, 'must be at most 100 characters').nullish().transform((v) => v || null),
  })
  .meta({ id: 'CreateApiKey' });

/** `POST /app/orgs/:slug/api-keys` answer: the key, shown only now, and its listed form. */
export const createdApiKeySchema = z.object({ key: z.string(), info: consoleApiKeySchema }).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
