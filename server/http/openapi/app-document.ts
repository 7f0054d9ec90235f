import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { agentConfigOperations } from '../app/agent-config-routes.js';
import { agentSettingsOperations } from '../app/agent-settings-routes.js';
import { apiKeyOperations } from '../app/api-key-routes.js';
import { coverageOperations } from '../app/coverage-routes.js';
import { csvExportOperations } from '../app/csv-export-routes.js';
import { deadlineOperations } from '../app/deadline-routes.js';
import { fixByOperations } from '../app/fix-by-routes.js';
import { endpointContextOperations } from '../app/endpoint-context-routes.js';
import { exceptionOperations } from '../app/exception-routes.js';
import { inventoryOperations } from '../app/inventory-routes.js';
import { organizationOperations } from '../app/organization-routes.js';
import { savedViewOperations } from '../app/saved-view-routes.js';
import { reportOperations } from '../app/report-routes.js';
import { sessionOperations } from '../app/session-route.js';
import { sessionsOperations } from '../app/sessions-routes.js';
import { softwareOperations } from '../app/software-routes.js';
import { syncChangesOperations } from '../app/sync-changes-routes.js';
import { syncOperations } from '../app/sync-routes.js';
import { threatIntelHistoryOperations } from '../app/threat-intel-history-routes.js';
import { threatIntelOperations } from '../app/threat-intel-routes.js';
import { workPackageOperations } from '../app/work-package-routes.js';
import { appTags, consoleTokenSecurityScheme, registerConsoleOperation, scriptTokenSecurityScheme } from './app-operations.js';
import { generateDocument } from './generate-document.js';
import { jsonResponse, openApiDocumentSchema } from './responses.js';

/** Each /app route module's operations, registered beside its router. */
const routeModules = [
  sessionOperations,
  sessionsOperations,
  organizationOperations,
  syncOperations,
  syncChangesOperations,
  inventoryOperations,
  endpointContextOperations,
  coverageOperations,
  softwareOperations,
  workPackageOperations,
  reportOperations,
  deadlineOperations,
  fixByOperations,
  exceptionOperations,
  apiKeyOperations,
  savedViewOperations,
  csvExportOperations,
  agentConfigOperations,
  agentSettingsOperations,
  threatIntelOperations,
  threatIntelHistoryOperations,
];

/** Registers every /app operation: the document's and the router's 405s (app-router.ts) read this one list. */
function registerAppOperations(registry: OpenAPIRegistry): void {
  // Served by the router that serves this document (app-router.ts).
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getConsoleOpenApiDocument',
    summary: 'Get this OpenAPI document',
    tag: 'Session',
    responses: { 200: jsonResponse(openApiDocumentSchema, 'This document.') },
  });
  for (const register of routeModules) register(registry);
}

/**
 * The methods of each path of /app (`/app/orgs/{slug}`), as the document lists them, upper case;
 * registered without generating the document, so cheap enough to read at startup.
 */
export function appPathMethods(): Map<string, string[]> {
  const registry = new OpenAPIRegistry();
  registerAppOperations(registry);
  const methods = new Map<string, string[]>();
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const { path, method } = definition.route;
    methods.set(path, [...(methods.get(path) ?? []), method.toUpperCase()]);
  }
  return methods;
}

/**
 * The OpenAPI 3.1 document of the console's API under /app, generated from the zod contracts
 * that its routes validate requests with and answer, as each route module registers them.
 */
export function buildAppOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', consoleTokenSecurityScheme.name, consoleTokenSecurityScheme.scheme);
  registry.registerComponent('securitySchemes', scriptTokenSecurityScheme.name, scriptTokenSecurityScheme.scheme);
  registerAppOperations(registry);
  return generateDocument(registry, {
    title: 'Remediation Console API',
    description:
      "The console's own API, under /app of the server that serves the v1 API: organizations, sync, the collections with sort and search, " +
      'the dashboard and coverage, the software view and the remediation plan, remediation deadlines and performance, exceptions, local API keys, CSV exports, agent settings and agent configuration files, and imports of exploit intelligence (EPSS, KEV catalogs). Every request carries the desktop app\'s console token, a script token (`x-console-script-token`), or the console session of a browser (opened with `POST /app/session`). ' +
      'Lists page as in /v1; every error body is {"error": "<message>"}; a 400 that refuses a request body is a FieldError, which also lists each field\'s issue in `issues`.',
    tags: Object.entries(appTags).map(([name, description]) => ({ name, description })),
  });
}

/**
 * The document as served, built at its first request of each UTC day: its request examples
 * are dated from the day (exception-examples.ts), and so stay ones the server accepts.
 */
export function servedAppOpenApiDocument(): () => string {
  let served: { day: number; json: string } | undefined;
  return () => {
    const day = Math.floor(Date.now() / 86_400_000);
    if (served?.day !== day) served = { day, json: JSON.stringify(buildAppOpenApiDocument()) };
    return served.json;
  };
}
