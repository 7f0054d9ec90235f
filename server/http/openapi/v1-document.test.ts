import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { agentConfigOperation } from '../v1/agent-config-route.js';
import { buildV1OpenApiDocument } from './v1-document.js';

describe('the v1 OpenAPI document', () => {
  const document = buildV1OpenApiDocument([agentConfigOperation]);
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) => (item.get ? [{ path, ...item.get }] : []));

  it('passes an OpenAPI 3.1 validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('documents every operation of the specification and the extensions', () => {
    expect(Object.keys(document.paths ?? {}).sort()).toEqual([
      '/health',
      '/v1/agent/config',
      '/v1/endpoints',
      '/v1/endpoints/{endpointId}',
      '/v1/openapi.json',
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
    expect(Object.keys(config?.responses ?? {}).sort()).toEqual(['200', '400', '401', '409', '414', '421', '500', '502']);
    // The one change a /v1 client can see of the agent settings: the 409 of an organization without them.
    expect((config?.responses as Record<string, { description: string }>)['409']!.description).toMatch(/enrollment secret.*server URL.*Team ID/);
  });

  it("names each operation after the specification's purposes", () => {
    expect(Object.fromEntries(operations.map((operation) => [operation.path, operation.operationId]))).toEqual({
      '/v1/endpoints': 'listEndpoints',
      '/v1/endpoints/{endpointId}': 'getEndpoint',
      '/v1/remediation-targets': 'listRemediationTargets',
      '/v1/remediation-targets/{targetId}': 'getRemediationTarget',
      '/v1/scopes': 'listScopes',
      '/v1/scopes/{scopeId}': 'getScope',
      '/v1/vulnerability-findings': 'listVulnerabilityFindings',
      '/v1/vulnerability-findings/{findingId}': 'getVulnerabilityFinding',
      '/v1/agent/config': 'downloadAgentConfig',
      '/health': 'checkHealth',
      '/v1/openapi.json': 'getOpenApiDocument',
    });
  });

  it('declares the public operations public and the others behind the API key, with the answers of the guards', () => {
    for (const operation of operations) {
      const isPublic = operation.path === '/health' || operation.path === '/v1/openapi.json';
      expect(operation.security, operation.path).toEqual(isPublic ? [] : [{ bearer: [] }]);
      const statuses = Object.keys(operation.responses ?? {});
      expect(statuses, operation.path).toEqual(expect.arrayContaining(isPublic ? ['421', '500'] : ['401', '421', '500']));
    }
  });
});
