import type { Command } from 'commander';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { isDatasetSize, seedOrganization, seedReserveBytes } from '../../organizations/seed-organization.js';
import { UsageError, parseWholeNumber, resolveDataDir, withStore } from '../cli-context.js';

/** `seed`: fills a local organization with a generated dataset. */
export function registerSeedCommand(program: Command): void {
  program
    .command('seed')
    .description("replace a local organization's data with a generated dataset, dated from today")
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--size <size>', 'demo, medium or large')
    .option('--seed <n>', 'seed of the generator', parseWholeNumber('--seed', 0, 2 ** 31 - 1), 1)
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; size: string; seed: number; dataDir?: string }) => {
      if (!isDatasetSize(options.size)) throw new UsageError(`--size must be demo, medium or large, not "${options.size}"`);
      const size = options.size;
      const storeOptions = { command: 'remediation-console seed', reserveBytes: seedReserveBytes(size) };
      await withStore(resolveDataDir(options.dataDir), storeOptions, (store) => {
        const started = performance.now();
        seedOrganization(store, requireOrganization(store, options.org), size, options.seed);
        const day = new Date(store.now()).toISOString().slice(0, 10);
        console.log(`Seeded "${options.org}" with the ${size} dataset (seed ${options.seed}), dated from ${day}, in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      });
    });
}
