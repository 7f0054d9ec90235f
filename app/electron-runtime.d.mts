/** What `npm start` and the Electron e2e tests say where no Electron runtime is installed. */
export declare const noElectronRuntime: string;
/** The path of the installed Electron executable, or undefined when there is none. */
export declare function findElectronRuntime(env?: NodeJS.ProcessEnv): string | undefined;
