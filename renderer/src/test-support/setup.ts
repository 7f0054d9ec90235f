import { cleanup, configure } from '@testing-library/react';
import { afterEach, inject } from 'vitest';
import { queryClient } from '../api/query-client';
import './provided-context';

/*
 * The setup of every renderer component test (vitest.config.ts): the console runs in jsdom as in
 * the desktop app, against the component tests' server (server/test/support/component-test-server.ts).
 */
const server = inject('consoleServer');

// A view's first answer comes from a real server sharing the machine with the other test files:
// under CI's load it took more than Testing Library's default second (a form still "Loading…").
configure({ asyncUtilTimeout: 10_000 });

// The desktop app's page comes from its server, so the console's `/app/…` URLs reach it; jsdom's
// page is elsewhere, and Node's fetch resolves no relative URL: resolve them against the server.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) => nodeFetch(typeof input === 'string' ? new URL(input, server.url) : input, init);

// The desktop app's bridge carries the console token every /app request sends. Saving a file
// through a dialog is the desktop app's own, which Playwright's Electron specs test.
window.desktop = {
  consoleToken: server.token,
  apiBaseUrl: `${server.url}/v1`,
  appVersion: 'component test',
  saveFile: () => Promise.reject(new Error('No save dialog in a component test.')),
  revealInFolder: () => Promise.reject(new Error('No file manager in a component test.')),
};

// jsdom lays nothing out: every element measures 0 × 0. A grid of the virtual table is given the
// height of ten rows of 32 pixels, as a window would, so that it renders the rows in view.
export const gridHeight = 320;
Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
  configurable: true,
  get(this: HTMLElement) {
    return this.getAttribute('role') === 'grid' ? gridHeight : 0;
  },
});
// jsdom has no scrolling either; the console asks an element into view after some choices.
Element.prototype.scrollIntoView = () => {};

afterEach(() => {
  cleanup();
  queryClient.clear();
});
