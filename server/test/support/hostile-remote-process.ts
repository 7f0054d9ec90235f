/** The child process of a hostile remote (hostile-remote.ts): serves the mode named by its argument and prints its address. */
import { type HostileMode, serveHostileRemote } from './hostile-remote.js';

process.stdout.write(`${await serveHostileRemote(process.argv[2] as HostileMode)}\n`);
