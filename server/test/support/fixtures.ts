import { generateInventory } from '../../demo/index.js';
import type { Inventory } from '../../../contracts/inventory.js';

const cache = new Map<number, Inventory>();

/** The demo dataset of a seed, generated once per test file. */
export function demoInventory(seed: number): Inventory {
  const cached = cache.get(seed);
  if (cached) return cached;
  const inventory = generateInventory('demo', seed);
  cache.set(seed, inventory);
  return inventory;
}

/** A consistent slice of the demo dataset (its first endpoints with their targets and findings), for tests that page through whole lists. */
export function smallInventory(seed: number, endpointCount = 40): Inventory {
  const full = demoInventory(seed);
  const endpoints = full.endpoints.slice(0, endpointCount);
  const endpointIds = new Set(endpoints.map((e) => e.id));
  const remediationTargets = full.remediationTargets.filter((t) => t.endpoint_id !== null && endpointIds.has(t.endpoint_id));
  const targetIds = new Set(remediationTargets.map((t) => t.id));
  const findings = full.findings.filter((f) => f.remediation_target_id !== null && targetIds.has(f.remediation_target_id));
  return { endpoints, remediationTargets, scopes: full.scopes, findings };
}

/** Items in the lists' default order: created_at, then id. */
export function inDefaultOrder<T extends { id: string; created_at: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
