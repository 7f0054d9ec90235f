import { type OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';

/** What tells one document from the other. */
export interface DocumentInfo {
  title: string;
  description: string;
  /** Groups of operations, each with what it holds; every tag an operation names is here. */
  tags?: { name: string; description: string }[];
}

/**
 * An OpenAPI 3.1 document of the operations in `registry`, served from the server's own
 * origin (hence the relative server URL).
 */
export function generateDocument(registry: OpenAPIRegistry, info: DocumentInfo) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: '1.0.0',
      description: info.description,
      // The product is not published under an open-source licence.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The server that serves this document, on a loopback port.' }],
    ...(info.tags ? { tags: info.tags } : {}),
  });
}
