import { createRequire } from 'node:module';
import type Ipaddr from 'ipaddr.js';
import type { TagRuleCondition } from '../../../contracts/console/endpoint-context.js';
import { GlobError, compileGlob } from '../../../contracts/glob.js';

/** What a tag rule reads of an endpoint: its row's facts. */
export interface EndpointFacts {
  id: string;
  hostname: string;
  ip: string | null;
  os_family: string;
  os_name: string;
  has_agent: number;
}

/** A condition that cannot be evaluated as given (a CIDR that does not parse): the answer is 400. */
export class TagRuleConditionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * ipaddr.js, loaded by the first range or the first address that is not a dotted quad: its
 * module took about 10 ms of CPU to load, which every command that opens a store paid.
 */
let loadedIpaddr: typeof Ipaddr | undefined;
const ipaddr = (): typeof Ipaddr => (loadedIpaddr ??= createRequire(import.meta.url)('ipaddr.js') as typeof Ipaddr);

/** A CIDR range, or a bare address as its single-address range; throws {@link TagRuleConditionError}. */
function parseRange(cidr: string, field: string): [Ipaddr.IPv4 | Ipaddr.IPv6, number] {
  try {
    if (cidr.includes('/')) return ipaddr().parseCIDR(cidr);
    const address = ipaddr().parse(cidr);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new TagRuleConditionError(field, `"${cidr}" is not an IPv4 or IPv6 CIDR range`);
  }
}

/** An address as a rule compares it: IPv4 as an unsigned 32-bit number (the common case, read without ipaddr), else ipaddr's IPv6. */
type Address = number | Ipaddr.IPv6;

const dottedQuad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IP as {@link Address}, IPv4-mapped IPv6 as IPv4; undefined when there is none or it does not parse. */
function parseAddress(ip: string | null): Address | undefined {
  if (ip === null) return undefined;
  const quad = dottedQuad.exec(ip);
  if (quad) {
    const octets = quad.slice(1).map(Number);
    return octets.every((octet) => octet <= 255) ? octets.reduce((value, octet) => value * 256 + octet, 0) : undefined;
  }
  if (!ipaddr().isValid(ip)) return undefined;
  const address = ipaddr().process(ip);
  return address.kind() === 'ipv4' ? parseAddress(address.toString()) : (address as Ipaddr.IPv6);
}

/** Each endpoint's address, read once however many IP conditions test it (facts are read anew for each version of the data). */
const addresses = new WeakMap<EndpointFacts, Address | null>();

function addressOf(facts: EndpointFacts): Address | undefined {
  let address = addresses.get(facts);
  if (address === undefined) addresses.set(facts, (address = parseAddress(facts.ip) ?? null));
  return address ?? undefined;
}

/** A CIDR range as a test of an address. */
function rangeTest(cidr: string, field: string): (address: Address) => boolean {
  const [network, bits] = parseRange(cidr, field);
  if (network.kind() === 'ipv6') return (address) => typeof address !== 'number' && address.match(network, bits);
  // 2^32 − 2^(32 − bits): the mask as a number, without 32-bit signed arithmetic.
  const size = 2 ** (32 - bits);
  const start = Math.floor((parseAddress(network.toString()) as number) / size) * size;
  return (address) => typeof address === 'number' && address >= start && address < start + size;
}

/**
 * A glob matched case-insensitively against a whole value, in time linear in the value
 * ({@link compileGlob}); throws {@link TagRuleConditionError} for braces giving too many alternatives.
 */
function globTest(pattern: string, field: string): (value: string) => boolean {
  try {
    return compileGlob(pattern);
  } catch (error) {
    if (error instanceof GlobError) throw new TagRuleConditionError(field, error.message);
    throw error;
  }
}

/** One condition as a test of an endpoint's facts; `field` names it in errors. */
function conditionTest(condition: TagRuleCondition, field: string): (facts: EndpointFacts) => boolean {
  switch (condition.kind) {
    case 'hostname': {
      const test = globTest(condition.pattern, `${field}.pattern`);
      return (facts) => test(facts.hostname);
    }
    case 'os_name': {
      // A fleet has a few OS names for thousands of endpoints: each is matched once.
      const test = globTest(condition.pattern, `${field}.pattern`);
      const seen = new Map<string, boolean>();
      return (facts) => {
        let matched = seen.get(facts.os_name);
        if (matched === undefined) seen.set(facts.os_name, (matched = test(facts.os_name)));
        return matched;
      };
    }
    case 'ip': {
      const inRange = rangeTest(condition.cidr, `${field}.cidr`);
      return (facts) => {
        const address = addressOf(facts);
        return address !== undefined && inRange(address);
      };
    }
    case 'os_family':
      return (facts) => facts.os_family === condition.os_family;
    case 'agent':
      return (facts) => (facts.has_agent === 1) === condition.has_agent;
  }
}

/**
 * A rule's conditions as one test (all must hold). Throws {@link TagRuleConditionError} for a
 * condition that does not compile, so that a rule is checked when it is written.
 */
export function ruleTest(conditions: readonly TagRuleCondition[]): (facts: EndpointFacts) => boolean {
  const tests = conditions.map((condition, index) => conditionTest(condition, `conditions.${index}`));
  return (facts) => tests.every((test) => test(facts));
}
