import path from 'node:path';
import { packageRoot } from '../../package-root.js';

/** The product's command line as users run it: bin/remediation-console.js over the build in dist/. */
export const cliBinary = path.join(packageRoot(), 'bin', 'remediation-console.js');
