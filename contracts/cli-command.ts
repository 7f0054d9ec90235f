/**
 * A command of the product's command line, as its user can paste it. Installed, the package puts
 * `remediation-console` on the PATH; a checkout has no such command, and runs the same through
 * its npm script, in its folder (after `npm run build`). Hints name both, since neither the
 * console's page nor a server's message knows how the reader got the product.
 */
export interface CliCommand {
  /** Where the package is installed: `remediation-console <args>`. */
  installed: string;
  /** From a checkout, in its folder: `npm run cli -- <args>`. */
  checkout: string;
}

/** `args` (a command and its options, e.g. `console-url`) in both forms. */
export function cliCommand(args: string): CliCommand {
  return { installed: `remediation-console ${args}`, checkout: `npm run cli -- ${args}` };
}

/** Both forms in words, for a message in plain text: `"remediation-console X" (from a checkout, in its folder: "npm run cli -- X")`. */
export function cliCommandText(args: string): string {
  const { installed, checkout } = cliCommand(args);
  return `"${installed}" (from a checkout, in its folder: "${checkout}")`;
}
