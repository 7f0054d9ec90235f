import ipaddr from 'ipaddr.js';
import picomatch from 'picomatch';
import type { TagRuleCondition } from '../../../contracts/console/endpoint-context.js';

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

/** A CIDR range, or a bare address as its single-address range; throws {@link TagRuleConditionError}. */
function parseRange(cidr: string, field: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (cidr.includes('/')) return ipaddr.parseCIDR(cidr);
    const address = ipaddr.parse(cidr);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new TagRuleConditionError(field, `"${cidr}" is not an IPv4 or IPv6 CIDR range`);
  }
}

/** An endpoint's IP as ipaddr reads it (IPv4-mapped IPv6 as IPv4), or undefined when it has none or it does not parse. */
function addressOf(ip: string | null): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ip === null || !ipaddr.isValid(ip)) return undefined;
  return ipaddr.process(ip);
}

/** A glob matched case-insensitively against a whole value; `*` crosses dots (hostnames, OS names). */
function globTest(pattern: string): (value: string) => boolean {
  return picomatch(pattern, { nocase: true, dot: true });
}

/** One condition as a test of an endpoint's facts; `field` names it in errors. */
function conditionTest(condition: TagRuleCondition, field: string): (facts: EndpointFacts) => boolean {
  switch (condition.kind) {
    case 'hostname': {
      const test = globTest(condition.pattern);
      return (facts) => test(facts.hostname);
    }
    case 'os_name': {
      const test = globTest(condition.pattern);
      return (facts) => test(facts.os_name);
    }
    case 'ip': {
      const range = parseRange(condition.cidr, `${field}.cidr`);
      return (facts) => {
        const address = addressOf(facts.ip);
        return address !== undefined && address.kind() === range[0].kind() && address.match(range);
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
