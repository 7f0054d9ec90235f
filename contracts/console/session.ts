import { z } from 'zod';
import { secretProtections } from '../enums.js';

/** How this process seals secrets at rest: what the console shows where the user hands one over. */
export const secretStorageSchema = z
  .object({
    protection: z.enum(secretProtections),
    /** Whether the desktop app found a system keychain; null headless, where no keychain is involved. */
    keychainAvailable: z.boolean().nullable(),
    /** One sentence for the user, naming the protection and, without a keychain, what it means. */
    description: z.string(),
  })
  .meta({ id: 'SecretStorage' });
export type SecretStorage = z.infer<typeof secretStorageSchema>;

/** `GET /app/session`: where local tools reach the loopback API, and how secrets are sealed. */
export const consoleSessionSchema = z
  .object({
    apiBaseUrl: z.string(),
    /** Null where the server has no sealer and so stores no secret (connecting a replica answers 501). */
    secretStorage: secretStorageSchema.nullable(),
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/** `POST /app/session`: the one-time token of a console link, exchanged for a session cookie. */
export const openConsoleSessionBodySchema = z
  .object({
    /** The `token` of the link's `#token=` fragment. */
    token: z.string().max(200),
  })
  .strict()
  .meta({ id: 'OpenConsoleSessionBody' });
export type OpenConsoleSessionBody = z.infer<typeof openConsoleSessionBodySchema>;
