import SwaggerParser from '@apidevtools/swagger-parser';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The parts of a JSON Schema (OpenAPI 3.1) that the two documents use. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
}

/** A path or query parameter as its operation documents it. */
export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

/** One operation of a document, its `$ref`s resolved. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path template, `/v1/endpoints/{endpointId}`. */
  template: string;
  /** What it says in words: its description and those of its answers. */
  statedText: string;
  parameters: DocumentedParameter[];
  /** Its request body: JSON, or else the first media type it documents (`text/csv`), whose example is its text. */
  body?: { required: boolean; mediaType: string; schema: JsonSchema; example?: unknown };
  /** Each documented status, with the media types of its body (none for a bodyless answer). */
  responses: Map<number, Record<string, JsonSchema>>;
}

interface RawOperation {
  operationId: string;
  description?: string;
  parameters?: DocumentedParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>;
}

/** The operations of an OpenAPI document as a tool reads it: dereferenced, in the document's order. */
export async function documentedOperations(document: unknown): Promise<DocumentedOperation[]> {
  const resolved = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as { paths: Record<string, Record<string, RawOperation>> };
  return Object.entries(resolved.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const content = operation.requestBody?.content ?? {};
      const [mediaType, media] = content['application/json'] ? ['application/json', content['application/json']] : (Object.entries(content)[0] ?? []);
      return {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        statedText: [operation.description ?? '', ...Object.values(operation.responses).map((response) => response.description ?? '')].join(' '),
        parameters: operation.parameters ?? [],
        ...(media ? { body: { required: operation.requestBody?.required === true, mediaType: mediaType!, schema: media.schema, example: media.example } } : {}),
        responses: new Map(
          Object.entries(operation.responses).map(([status, response]) => [
            Number(status),
            Object.fromEntries(Object.entries(response.content ?? {}).map(([type, media]) => [type, media.schema])),
          ]),
        ),
      };
    }),
  );
}

/** An answer as the server sent it. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Checks answers against what their operation documents: a status it lists, a body of one of
 * its media types, and a JSON body valid against that status's schema (ajv, formats checked).
 */
export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  /** Whether `value` is valid against `schema`; the problems, empty when it is. */
  problemsOf(schema: JsonSchema, value: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`);
  }

  /** What is wrong with `answer` as an answer of `operation`; empty when it is as documented. */
  check(operation: DocumentedOperation, answer: Answer): string[] {
    const where = `${operation.operationId} answered ${answer.status}`;
    const content = operation.responses.get(answer.status);
    if (!content) return [`${where}, which it does not document (${[...operation.responses.keys()].join(', ')}): ${answer.text.slice(0, 300)}`];
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return answer.text === '' ? [] : [`${where} with a body, documented without one`];
    const mediaType = answer.contentType.split(';')[0]!.trim();
    const schema = content[mediaType];
    if (!schema) return [`${where} with ${answer.contentType || 'no Content-Type'}, documented as ${mediaTypes.join(', ')}`];
    if (mediaType !== 'application/json') return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where} with a body that is not JSON: ${answer.text.slice(0, 200)}`];
    }
    return this.problemsOf(schema, body).map((problem) => `${where}: ${problem} in ${answer.text.slice(0, 300)}`);
  }
}

/** A request of an operation, its parameters as sent (a name may come twice). */
export interface OperationRequest {
  path: Record<string, string>;
  query: [string, string][];
  /** The raw body, sent as `mediaType` (application/json when not given); absent, no body is sent. */
  body?: string;
  mediaType?: string;
}

/** Sends a request to a server at `baseUrl` with `headers` (the key or the console token). */
export async function sendRequest(baseUrl: string, operation: DocumentedOperation, request: OperationRequest, headers: Record<string, string>): Promise<Answer> {
  const path = operation.template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(request.path[name] ?? ''));
  const query = new URLSearchParams(request.query).toString();
  const response = await fetch(`${baseUrl}${path}${query ? `?${query}` : ''}`, {
    method: operation.method,
    headers: { ...headers, ...(request.body === undefined ? {} : { 'content-type': request.mediaType ?? 'application/json' }) },
    body: request.body,
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}
