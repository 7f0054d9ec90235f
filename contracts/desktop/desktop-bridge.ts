/**
 * What the desktop shell gives the console as `window.desktop`, and the only thing it gives:
 * implemented by the preload (app/preload), used by the renderer, declared only here.
 */
export interface DesktopBridge {
  /** The console token for /app requests (header `x-console-token`). */
  readonly consoleToken: string;
  /** The loopback API's base URL, e.g. `http://127.0.0.1:7300`. */
  readonly apiBaseUrl: string;
  /** The desktop app's version. */
  readonly appVersion: string;
  /**
   * Saves what the console serves at `source.path` to a file the user picks in the native save
   * dialog. The main process fetches the bytes itself, so they never pass through the renderer.
   */
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  /**
   * Prints the report at `source.path` to a PDF (Electron's `printToPDF`, offline) and saves it
   * to a file the user picks in the native save dialog. Optional: the console offers "Save as
   * PDF" only where the bridge has it, and the browser's print elsewhere.
   */
  readonly saveReportPdf?: (request: SaveReportPdfRequest) => Promise<SaveFileResult>;
  /** Shows a file saved by {@link saveFile} or {@link saveReportPdf} in this session in the system's file manager. */
  revealInFolder(path: string): Promise<void>;
}

/** A file type offered in the save dialog, as Electron's `FileFilter`. */
export interface SaveFileFilter {
  name: string;
  /** Extensions without the dot, e.g. `zip`. */
  extensions: string[];
}

/** What to save and how to offer it. */
export interface SaveFileRequest {
  /** The file name the dialog suggests; a bare name, not a path. */
  suggestedName: string;
  filters?: SaveFileFilter[];
  source: {
    /** A console-relative URL path under /app/, e.g. `/app/orgs/demo/agent-config?platform=macos`. */
    path: string;
  };
}

/** Which report to print to PDF, and the file name to offer. */
export interface SaveReportPdfRequest {
  /** A bare file name ending in `.pdf`, e.g. `report-….pdf`. */
  suggestedName: string;
  source: {
    /** The report's HTML under /app/, e.g. `/app/orgs/demo/reports/<id>`. */
    path: string;
  };
}

/** How a save ended. */
export type SaveFileResult =
  | { saved: true; path: string }
  | { saved: false; reason: 'cancelled' }
  | { saved: false; reason: 'failed'; message: string };
