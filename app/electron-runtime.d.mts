/** The path of the installed Electron executable, or undefined when there is none. */
export declare function findElectronRuntime(env?: NodeJS.ProcessEnv): string | undefined;
/** Installs the Electron runtime with the electron package's own installer (a download). */
export declare function installElectronRuntime(
  env?: NodeJS.ProcessEnv,
): { installed: true; executable: string } | { installed: false; reason: string };
