/**
 * Timing of matchers against a linear baseline (issue 33): what a match costs is compared with
 * reading its input once, so that the check holds on a slow or busy machine and still tells a
 * linear matcher (a small multiple of the scan) from a backtracking one (the scan times the
 * input's length, or worse).
 */

/** Milliseconds `run` takes, the best of three tries (the one least disturbed by other work); its answers are kept, so that no engine drops the work. */
export function bestMilliseconds(run: () => unknown): number {
  let best = Infinity;
  const answers: unknown[] = [];
  while (answers.length < 3) {
    const started = performance.now();
    answers.push(run());
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Milliseconds to read every character of `value` once: the linear baseline. */
export function scanMilliseconds(value: string): number {
  return bestMilliseconds(() => {
    let sum = 0;
    for (let at = 0; at < value.length; at++) sum = (sum + value.charCodeAt(at)) | 0;
    return sum;
  });
}

/** A text of `length` characters repeating `unit`: the long stored strings of the tests. */
export function repeated(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}
