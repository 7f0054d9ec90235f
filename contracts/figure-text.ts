/*
 * How figures are written in sentences, one way for the server's sentences and the console's
 * (docs/decisions/the-console/figures-are-written-one-way.md, "Figures are written one way"). No zod here: the console imports it.
 */

/**
 * A share from 0 to 1 as a percentage to one decimal, rounded down: a share shown never claims
 * more than is closed (0.5698 is 56.9, not 57.0). Every measured share is written with this one
 * decimal ("39.0 %" beside "39.3 %").
 */
export function percentRoundedDown(share: number): number {
  // The epsilon keeps a share that is exactly a tenth (0.95) from falling a tenth short through floating point.
  return Math.floor(share * 1000 + 1e-9) / 10;
}

// Made at the first count written: the first Intl object of a process loads its locale data (about 30 ms), which every command paid at start.
let englishCount: Intl.NumberFormat | undefined;

/**
 * A count and its noun, the noun's plural unless the count is one: "1 open finding",
 * "2 open findings" (`many` for a plural not made with an s). `format` writes the number: the
 * server's sentences in English digits, the console in the user's locale.
 */
export function counted(count: number, one: string, many = `${one}s`, format: (count: number) => string = (n) => (englishCount ??= new Intl.NumberFormat('en-US')).format(n)): string {
  return `${format(count)} ${count === 1 ? one : many}`;
}
