import type { DesktopBridge, SaveFileRequest, SaveFileResult, SaveReportPdfRequest } from './desktop-bridge.js';

/**
 * The IPC channels between the preload bridge and the main process, with what each carries.
 * Types only: the sandboxed preload can require nothing but `electron`, so it names channels by
 * string literals that these maps check on both sides.
 */
export interface InvokeChannels {
  'desktop:save-file': { request: SaveFileRequest; response: SaveFileResult };
  'desktop:save-report-pdf': { request: SaveReportPdfRequest; response: SaveFileResult };
  'desktop:reveal-in-folder': { request: string; response: void };
}

/** Channels answered synchronously (`ipcRenderer.sendSync`), used once while the preload loads. */
export interface SyncChannels {
  /** The values the bridge exposes as plain properties; `null` to a sender that is not trusted. */
  'desktop:bootstrap': { response: DesktopBootstrap | null };
}

/** The bridge's synchronous values. */
export type DesktopBootstrap = Pick<DesktopBridge, 'consoleToken' | 'apiBaseUrl' | 'appVersion'>;

/** The name of an invoke channel. */
export type InvokeChannel = keyof InvokeChannels;

/** The name of a sync channel. */
export type SyncChannel = keyof SyncChannels;
