/** What the component tests' global setup (server/test/support/component-test-server.ts) provides them. */
declare module 'vitest' {
  export interface ProvidedContext {
    consoleServer: { url: string; token: string };
  }
}

export {};
