import * as z from 'zod';
import { dateTimeSchema } from '../common.js';
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

/** A browser's console session or a script's token, as listed: never its secret. */
export const consoleCredentialSchema = z
  .object({
    id: z.string(),
    /** `browser`: a session in a browser's cookie; `script`: a token a script sends in `x-console-script-token`. */
    kind: z.enum(['browser', 'script']),
    /** A script token's name; null for a browser session. */
    name: z.string().nullable(),
    /** The browser that opened the session, as its User-Agent names it ("Firefox 132 on Windows"); null for a script token. */
    userAgent: z.string().nullable(),
    createdAt: dateTimeSchema,
    /** Recorded at most once a minute. */
    lastUsedAt: dateTimeSchema,
    /** When it ends unless used again: a browser session at its absolute lifetime or idle timeout, whichever is first. */
    expiresAt: dateTimeSchema,
    /** Whether it is the session of the request that lists it. */
    current: z.boolean(),
  })
  .meta({ id: 'ConsoleCredential' });
export type ConsoleCredential = z.infer<typeof consoleCredentialSchema>;

/** `GET /app/sessions`: the browser sessions and script tokens, the oldest first. */
export const consoleCredentialListSchema = z.object({ data: z.array(consoleCredentialSchema) }).meta({ id: 'ConsoleCredentialList' });

/** `POST /app/sessions/sign-out-others`: how many browser sessions were ended. */
export const signedOutSchema = z.object({ revoked: z.number().int().nonnegative() }).meta({ id: 'SignedOut' });
