import http from 'node:http';
import { buildV1OpenApiDocument } from '../../http/openapi/v1-document.js';
import { agentConfigOperation } from '../../http/v1/agent-config-route.js';
import { OpenApiResponseValidator } from './openapi-validator.js';

/** An answer of the server, its JSON body parsed. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

const validator = new OpenApiResponseValidator(buildV1OpenApiDocument([agentConfigOperation]) as never);

/**
 * Calls the server over HTTP and checks every JSON answer of the v1 API and /health against
 * the OpenAPI document: a body that does not match fails the test that made the request.
 */
export async function apiGet(
  baseUrl: string,
  path: string,
  options: { key?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const method = options.method ?? 'GET';
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}), ...options.headers },
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json');
  const body = isJson && text ? JSON.parse(text) : text;
  const pathname = new URL(baseUrl + path).pathname;
  if (method === 'GET' && isJson && (pathname.startsWith('/v1/') || pathname === '/health') && pathname !== '/v1/openapi.json') {
    const problems = knownPath(pathname) ? validator.check(method, pathname, response.status, body) : [];
    if (problems.length > 0) throw new Error(`Response does not match the OpenAPI document:\n${problems.join('\n')}`);
  }
  return { status: response.status, headers: response.headers, body };
}

function knownPath(pathname: string): boolean {
  return /^\/(health|v1\/(endpoints|remediation-targets|scopes|vulnerability-findings)(\/[^/]+)?|v1\/agent\/config)$/.test(pathname);
}

/** A raw HTTP request with any headers, Host included, for the hardening tests. */
export function rawRequest(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: options.headers, setHost: !options.headers?.host && !options.headers?.Host },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
