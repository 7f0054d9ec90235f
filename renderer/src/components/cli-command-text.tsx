import { cliCommand } from '../../../contracts/cli-command';

/**
 * A command of the product's command line in both forms a reader may need: installed
 * (`remediation-console …`) and from a checkout (`npm run cli -- …`), since the console cannot
 * tell how its user got the product.
 */
export function CliCommandText({ args }: { args: string }) {
  const { installed, checkout } = cliCommand(args);
  return (
    <>
      <code>{installed}</code> (from a checkout, in its folder: <code>{checkout}</code>)
    </>
  );
}
