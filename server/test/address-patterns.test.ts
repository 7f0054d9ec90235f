import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseUrlOrBlankPattern, baseUrlPattern, cidrPattern } from '../../contracts/address-patterns.js';
import { parseRemoteUrl } from '../../contracts/remote-url.js';
import { serverUrlProblem } from '../organizations/manage-agent-settings.js';
import { ruleTest } from '../store/basics/tag-rule-conditions.js';

/**
 * The patterns the /app document shows are ones the server's own checks take, whatever a tool
 * generates from them: a remote URL (no network needed to parse it, unlike connecting), an agent
 * server URL, a tag rule's CIDR range. The property test of the document cannot send the URLs
 * (a remote is called); this checks them where they are parsed.
 */
const runs = 500;
/**
 * Strings the pattern takes, but for a host label of the punycode form (`xn--…`): whether one
 * decodes is the URL parser's to say, not a regular expression's (`HTTp://xn--a.a` is refused).
 */
const matching = (pattern: RegExp) => fc.stringMatching(pattern).filter((url) => !/(?:^|[/.])xn--/i.test(url));

describe('the address patterns of the /app document', () => {
  it('a base URL the pattern takes is a remote URL the server takes', () => {
    const taken = (url: string) => {
      expect(parseRemoteUrl(url.trim()), JSON.stringify(url)).toBeDefined();
    };
    fc.assert(fc.property(matching(baseUrlPattern), taken), { numRuns: runs });
  });

  it('a base URL the pattern takes is an agent server URL the server takes, a loopback one with allowLoopback', () => {
    const taken = (url: string) => {
      expect(serverUrlProblem(url.trim(), true), JSON.stringify(url)).toBeUndefined();
    };
    fc.assert(fc.property(matching(baseUrlPattern), taken), { numRuns: runs });
    expect(baseUrlOrBlankPattern.test(' \t')).toBe(true);
  });

  it('a range the pattern takes is a CIDR a tag rule takes', () => {
    const taken = (cidr: string) => {
      expect(() => ruleTest([{ kind: 'ip', cidr }]), cidr).not.toThrow();
    };
    fc.assert(fc.property(matching(cidrPattern), taken), { numRuns: runs });
  });

  it('refuses what the server refuses: no scheme, another scheme, credentials, a query, a bad range', () => {
    for (const url of ['?', '', 'agents.example.com', 'ftp://x.example', 'https://user@x.example', 'https://x.example/?q=1', 'https://x.example/#top', 'http://1.2.3.256']) {
      expect(baseUrlPattern.test(url), url).toBe(false);
    }
    for (const cidr of ['', '10.0.0.0/33', '1:2:3', '300.1.1.1', '::/129']) expect(cidrPattern.test(cidr), cidr).toBe(false);
  });
});
