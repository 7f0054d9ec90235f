import type { DesktopBridge } from '../../contracts/desktop/desktop-bridge';

export type { DesktopBridge, SaveFileRequest, SaveFileResult, SaveReportPdfRequest } from '../../contracts/desktop/desktop-bridge';

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

/** The desktop bridge, or undefined in a browser: the console then falls back to web behaviour. */
export function desktopBridge(): DesktopBridge | undefined {
  return window.desktop;
}
