import fs from 'node:fs';

/**
 * The state letter of a process in /proc/<pid>/stat (R running, S sleeping, Z zombie...), or
 * undefined once it is gone (Linux).
 */
export function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the state follows its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Waits until a killed process is a zombie: dead, its files and sockets closed, not yet reaped. */
export async function untilZombie(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processState(pid) !== 'Z') {
    if (Date.now() > deadline) throw new Error(`process ${pid} is ${processState(pid) ?? 'gone'}, not a zombie`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
