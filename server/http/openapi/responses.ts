/**
 * The pieces the two OpenAPI documents (/v1 and /app) share: how an answer is written, and the
 * error answers that the middleware in front of every route sends, so that each operation
 * lists every status code the server really answers it with.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { errorSchema } from '../../../contracts/common.js';
import { maxQueryLength } from '../query-parameters.js';

/** Registers a module's operations in a document; each route module exports its own beside its router. */
export type OpenApiRouteRegistrar = (registry: OpenAPIRegistry) => void;

/** The answers of an operation, by status code. */
export type Responses = Record<number, ResponseConfig>;

/** A JSON answer of `schema`. */
export function jsonResponse(schema: z.ZodType, description: string): ResponseConfig {
  return { description, content: { 'application/json': { schema } } };
}

/** An error answer, `{"error": "<message>"}`, sent when `description` says. */
export function errorResponse(description: string): ResponseConfig {
  return jsonResponse(errorSchema, description);
}

/** A file download: the bytes of `schema`'s media type, named by Content-Disposition. */
export function fileResponse(mediaType: string, schema: z.ZodType, description: string): ResponseConfig {
  return {
    description,
    headers: { 'Content-Disposition': { description: 'attachment; filename="<the file\'s name>"', schema: { type: 'string' } } },
    content: { [mediaType]: { schema } },
  };
}

/**
 * The answers any operation may give whatever it is: the DNS rebinding guard's 421 (checked
 * before anything else) and the 500 of an internal error.
 */
export const guardAndServerErrors: Responses = {
  421: errorResponse('The Host header does not name this server (the DNS rebinding guard): use the address it listens on.'),
  500: errorResponse('Internal error; its cause is logged by the server, never sent.'),
};

/** The answers of an operation that reads a query string. */
export function queryErrors(invalid = 'A query parameter is invalid, out of range or given twice; the message names it.'): Responses {
  return {
    400: errorResponse(invalid),
    414: errorResponse(`The query string is longer than ${maxQueryLength.toLocaleString('en')} characters.`),
  };
}

/** The bodies a schema stands for: each option of a union, or the schema itself. */
function bodiesOf(schema: unknown): unknown[] {
  return schema instanceof z.ZodUnion ? [...schema.options] : [schema];
}

/**
 * The content of two answers of one status: for each media type, any of their bodies (`anyOf`
 * in the document when they differ, e.g. the Error of a bad slug beside the FieldError of a
 * bad body), the later one's first.
 */
function eitherContent(earlier: ResponseConfig, later: ResponseConfig): ResponseConfig['content'] {
  const content = { ...earlier.content, ...later.content };
  for (const [mediaType, media] of Object.entries(content)) {
    const schemas = [...new Set([later.content?.[mediaType]?.schema, earlier.content?.[mediaType]?.schema].flatMap(bodiesOf))].filter(
      (schema): schema is z.ZodType => schema instanceof z.ZodType,
    );
    if (schemas.length > 1) content[mediaType] = { ...media, schema: z.union(schemas) };
  }
  return content;
}

/**
 * Merges answer sets: where two name the same status, their descriptions are joined, each
 * being a sentence that says one case in which it is sent, and the body is any of theirs.
 */
export function mergeResponses(...sets: Responses[]): Responses {
  const merged: Responses = {};
  for (const set of sets) {
    for (const [status, response] of Object.entries(set)) {
      const earlier = merged[Number(status)];
      merged[Number(status)] = earlier
        ? { ...response, description: `${earlier.description} ${response.description}`, content: eitherContent(earlier, response) }
        : response;
    }
  }
  return merged;
}

/** The answer of an `openapi.json` operation: an OpenAPI 3.1 document. */
export const openApiDocumentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });
