import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components?: unknown;
}

/**
 * Checks response bodies against an OpenAPI 3.1 document: finds the operation by path
 * template and status, and validates the JSON body with the document's schema.
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { pattern: RegExp; template: string }[];

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components });
    this.templates = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Returns a list of problems; empty when the body matches the document. */
  check(method: string, path: string, status: number, body: unknown): string[] {
    const template = this.templates.find((entry) => entry.pattern.test(path))?.template;
    if (!template) return [`no path of the document matches ${path}`];
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (!operation) return [`the document has no ${method} ${template}`];
    const response = operation.responses[String(status)];
    if (!response) return [`the document has no ${status} response for ${method} ${template}`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const key = `${method} ${template} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
      validate = this.ajv.compile(rewritten);
      this.compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${key}: ${e.instancePath} ${e.message}`);
  }
}
