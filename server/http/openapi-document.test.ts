import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi-document.js';
import { agentConfigRoute } from './v1/agent-config-route.js';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument([agentConfigRoute({} as never).openapi]);

  it('passes an OpenAPI 3.1 validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('documents every operation of the specification and the extensions', () => {
    expect(Object.keys(document.paths ?? {}).sort()).toEqual([
      '/health',
      '/v1/agent/config',
      '/v1/endpoints',
      '/v1/endpoints/{endpointId}',
      '/v1/remediation-targets',
      '/v1/remediation-targets/{targetId}',
      '/v1/scopes',
      '/v1/scopes/{scopeId}',
      '/v1/vulnerability-findings',
      '/v1/vulnerability-findings/{findingId}',
    ]);
    const findings = document.paths?.['/v1/vulnerability-findings']?.get;
    const names = (findings?.parameters ?? []).map((parameter) => ('name' in parameter ? parameter.name : ''));
    expect(names).toEqual(['limit', 'offset', 'updatedSince', 'endpointId', 'remediationTargetId', 'severity', 'status', 'isKev', 'cveId']);
    const config = document.paths?.['/v1/agent/config']?.get;
    expect(Object.keys(config?.responses ?? {}).sort()).toEqual(['200', '400', '401', '409', '500', '502']);
  });
});
