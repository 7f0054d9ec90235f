import type { Random } from './random.js';

/**
 * Splits exactly `total` items over slots in proportion to their weights, giving no slot more than
 * its cap while the caps allow it: the dataset sizes are exact while per-endpoint and per-target
 * counts vary.
 *
 * @param weights a weight per slot; slots of weight 0 get nothing
 * @param caps the most a slot should get; exceeded (evenly) only when the caps add up to less than total
 * @param refill whether what the caps turn away is shared again in proportion to the weights of the
 *   slots still below their cap (otherwise it is handed out evenly, one per slot and pass)
 * @returns the count of each slot, adding up to total (0 if every weight is 0)
 */
export function allocate(total: number, weights: Float64Array, caps: Int32Array, random: Random, refill = false): Int32Array {
  const n = weights.length;
  const counts = new Int32Array(n);
  let weightSum = 0;
  for (let i = 0; i < n; i++) if ((caps[i] as number) > 0) weightSum += weights[i] as number;
  let remaining = total;
  if (weightSum > 0) {
    const perWeight = total / weightSum;
    for (let i = 0; i < n; i++) {
      const cap = caps[i] as number;
      if (cap <= 0) continue;
      const share = Math.min(cap, Math.floor((weights[i] as number) * perWeight));
      counts[i] = share;
      remaining -= share;
    }
    while (refill && remaining > 0) {
      let openWeight = 0;
      for (let i = 0; i < n; i++) if ((counts[i] as number) < (caps[i] as number)) openWeight += weights[i] as number;
      if (openWeight <= 0) break;
      const perOpenWeight = remaining / openWeight;
      let given = 0;
      for (let i = 0; i < n; i++) {
        const room = (caps[i] as number) - (counts[i] as number);
        if (room <= 0) continue;
        const share = Math.min(room, Math.floor((weights[i] as number) * perOpenWeight));
        counts[i] = (counts[i] as number) + share;
        given += share;
      }
      remaining -= given;
      if (given === 0) break;
    }
  }
  // Hand out what rounding down and the caps left, one per slot and pass, in a random order so
  // that no part of the list is favoured.
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  random.shuffle(order);
  let respectCaps = true;
  while (remaining > 0) {
    let given = 0;
    for (let k = 0; k < n && remaining > 0; k++) {
      const i = order[k] as number;
      if ((weights[i] as number) <= 0) continue;
      if (respectCaps && (counts[i] as number) >= (caps[i] as number)) continue;
      counts[i] = (counts[i] as number) + 1;
      remaining--;
      given++;
    }
    if (given === 0) {
      if (!respectCaps) break; // no slot has any weight
      respectCaps = false;
    }
  }
  return counts;
}
