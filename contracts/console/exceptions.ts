import * as z from 'zod';
import { countSchema, dateTimeSchema, uuidSchema } from '../common.js';
import { exceptionLimits, exceptionReasons, exceptionStates, exceptionsFileFormat } from './exception-basics.js';

/** A CVE id as a body gives it: any case, stored and answered in upper case (as /v1's `cveId` filter matches it). */
export const exceptionCveIdSchema = z
  .string()
  .trim()
  .regex(/^[Cc][Vv][Ee]-\d{4}-\d{4,}$/, 'must be a CVE id such as CVE-2021-44228')
  .max(64, 'must be at most 64 characters')
  .transform((id) => id.toUpperCase())
  .meta({ example: 'CVE-2021-44228' });

/** An id of /v1 (endpoint, finding), in any case; stored and answered in lower case, as /v1 answers ids. */
const v1IdSchema = uuidSchema.transform((id) => id.toLowerCase());

/** What an exception covers (exception-basics.ts, `exceptionScopeKinds`). */
export const exceptionScopeSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('cve'), cve_id: exceptionCveIdSchema }).meta({ description: "The CVE on every endpoint of the organization." }),
    z
      .strictObject({
        kind: z.literal('cve_on_endpoints'),
        cve_id: exceptionCveIdSchema,
        endpoint_ids: z
          .array(v1IdSchema)
          .min(1, 'must name at least one endpoint')
          .max(exceptionLimits.endpointsPerException, `must name at most ${exceptionLimits.endpointsPerException} endpoints`)
          .transform((ids) => [...new Set(ids)].sort()),
      })
      .meta({ description: 'The CVE on the endpoints named (by their /v1 ids; an id this replica does not hold yet covers nothing until it does).' }),
    z.strictObject({ kind: z.literal('finding'), finding_id: v1IdSchema }).meta({ description: 'One finding, by its /v1 id.' }),
  ])
  .meta({ id: 'ExceptionScope' });
export type ExceptionScope = z.output<typeof exceptionScopeSchema>;

const reasonSchema = z.enum(exceptionReasons, { error: `must be one of ${exceptionReasons.join(', ')}` });
const noteSchema = z.string().max(exceptionLimits.noteLength, `must be at most ${exceptionLimits.noteLength} characters`);
const userNameSchema = z.string().min(1).max(exceptionLimits.userNameLength);
// No fixed example: no date stays after now and within a year of it; the documents' request examples are dated when served.
const expiresAtSchema = dateTimeSchema.meta({
  example: undefined,
  description: 'When the exception stops leaving findings out: after the moment it is made or edited, and at most one year after it.',
});

/**
 * An exception as it is stored and exported: what it covers, why, until when, and who made,
 * last edited and revoked it (the local user's name on the machine where they did).
 */
export const exceptionRecordSchema = z
  .strictObject({
    id: uuidSchema,
    scope: exceptionScopeSchema,
    reason: reasonSchema,
    note: noteSchema,
    expires_at: expiresAtSchema,
    created_by: userNameSchema,
    created_at: dateTimeSchema,
    updated_by: userNameSchema.nullable(),
    updated_at: dateTimeSchema.nullable(),
    revoked_by: userNameSchema.nullable(),
    revoked_at: dateTimeSchema.nullable(),
  })
  .meta({ id: 'ExceptionRecord' });
export type ExceptionRecord = z.output<typeof exceptionRecordSchema>;

/** An exception as the console lists it: the record, where it stands now, and what it covers in the data now. */
export const consoleExceptionSchema = exceptionRecordSchema
  .extend({
    state: z.enum(exceptionStates).meta({ description: 'active until it expires or is revoked; only an active exception leaves findings out.' }),
    findings: countSchema.meta({ description: 'The findings its scope names in the data now, whatever its state.' }),
    open_findings: countSchema.meta({ description: 'The open ones among them.' }),
  })
  .meta({ id: 'Exception' });
export type ConsoleException = z.output<typeof consoleExceptionSchema>;

/** `GET /app/orgs/:slug/exceptions` query. */
export const exceptionListQuerySchema = z.object({
  state: z
    .enum(exceptionStates, { error: `must be one of ${exceptionStates.join(', ')}` })
    .optional()
    .meta({ description: 'Only the exceptions in this state now; every one when absent.' }),
});

/** `GET /app/orgs/:slug/exceptions`: newest first. */
export const exceptionListSchema = z.object({ data: z.array(consoleExceptionSchema) }).meta({ id: 'ExceptionList' });

/** `POST /app/orgs/:slug/exceptions` body; who makes it is the server's local user, never the body's. */
export const createExceptionBodySchema = z
  .strictObject({ scope: exceptionScopeSchema, reason: reasonSchema, note: noteSchema.default(''), expires_at: expiresAtSchema })
  .meta({ id: 'CreateException' });
export type CreateExceptionBody = z.output<typeof createExceptionBodySchema>;
/** What a client sends to create one (the note may be left out). */
export type CreateExceptionInput = z.input<typeof createExceptionBodySchema>;

/** `PATCH /app/orgs/:slug/exceptions/:exceptionId` body: what an exception's editor may change (its scope stays). */
export const updateExceptionBodySchema = z
  .strictObject({ reason: reasonSchema.optional(), note: noteSchema.optional(), expires_at: expiresAtSchema.optional() })
  .refine((body) => Object.keys(body).length > 0, { error: 'must change reason, note or expires_at' })
  .meta({ id: 'UpdateException', minProperties: 1, description: 'At least one of reason, note and expires_at: an edit that changes nothing is refused.' });
export type UpdateExceptionBody = z.output<typeof updateExceptionBodySchema>;

/**
 * The exported file (`GET /app/orgs/:slug/exceptions/export`), which `POST .../exceptions/import`
 * takes: a format name and version, then every exception of the organization, revoked and
 * expired ones included.
 */
export const exceptionsFileSchema = z
  .strictObject({
    format: z.literal(exceptionsFileFormat.format, { error: `must be "${exceptionsFileFormat.format}"` }),
    version: z.literal(exceptionsFileFormat.version, { error: `must be ${exceptionsFileFormat.version}: this version of the console reads no other` }),
    exported_at: dateTimeSchema,
    organization: z.strictObject({ slug: z.string().max(100), name: z.string().max(200) }).meta({ description: 'Where it was exported from; informative.' }),
    exceptions: z
      .array(exceptionRecordSchema)
      .max(exceptionLimits.exceptionsPerImport, `must hold at most ${exceptionLimits.exceptionsPerImport} exceptions`),
  })
  .meta({ id: 'ExceptionsFile' });
export type ExceptionsFile = z.output<typeof exceptionsFileSchema>;

/** `POST /app/orgs/:slug/exceptions/import` answer. */
export const exceptionImportResultSchema = z
  .object({
    created: countSchema.meta({ description: 'Exceptions whose id this organization did not hold.' }),
    updated: countSchema.meta({ description: 'Held ones the file changed later than they were changed here, taken from the file.' }),
    skipped: countSchema.meta({ description: 'Held ones changed here as late or later, or revoked here: left as they are.' }),
  })
  .meta({ id: 'ExceptionImportResult' });
export type ExceptionImportResult = z.output<typeof exceptionImportResultSchema>;

/** What a finding of the console carries of the exception in force that leaves it out (null when none does). */
export const findingExceptionSchema = z
  .object({ id: uuidSchema, reason: reasonSchema, expires_at: dateTimeSchema })
  .nullable()
  .meta({ id: 'FindingException', description: 'The active exception that covers the finding (the one expiring last), or null.' });
export type FindingException = z.output<typeof findingExceptionSchema>;

/** What the console adds to an endpoint beside its exposure (which leaves excepted findings out). */
export const exceptedExposureShape = {
  excepted_open_findings: countSchema.meta({ description: 'Open findings of the endpoint that active exceptions leave out of its exposure.' }),
  risk_score_before_exceptions: z.number().min(0).meta({ description: 'The risk score with those findings counted.' }),
};
