/**
 * The median of `values`: the middle value of the sorted values for an odd count, the mean of
 * the two middle ones for an even count; null for none. Reorders `values` (a scratch copy) in
 * place by quickselect, in linear time: sorting a million ages would hold the thread for about
 * a hundred milliseconds.
 */
export function median(values: Float64Array): number | null {
  const n = values.length;
  if (n === 0) return null;
  const middle = n >> 1;
  const upper = selectInPlace(values, middle);
  if (n % 2 === 1) return upper;
  // Selection leaves every value before `middle` at most the one there: the lower middle is their largest.
  let lower = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < middle; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/**
 * The `k`-th smallest of `values` (from 0), which it moves to index `k` with smaller or equal
 * values before it and greater or equal after (Hoare's selection, the pivot the median of three).
 */
function selectInPlace(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = medianOfThree(values[low]!, values[(low + high) >> 1]!, values[high]!);
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else break;
  }
  return values[k]!;
}

function medianOfThree(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}
