import { BlockList, isIP } from 'node:net';

// BlockList also matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 rules.
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const unspecified = new BlockList();
unspecified.addAddress('0.0.0.0', 'ipv4');
unspecified.addAddress('::', 'ipv6');

const familyOf = (address: string) => ({ 4: 'ipv4', 6: 'ipv6' })[isIP(address)] as 'ipv4' | 'ipv6' | undefined;

/**
 * Whether an address to listen on reaches this machine only: 127.0.0.0/8, ::1 (in any of its
 * spellings) or `localhost`. A host name, or an address of an interface, reaches further.
 */
export function isLoopbackAddress(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = familyOf(host);
  return family !== undefined && loopback.check(host, family);
}

/** Whether `host` is the address of every interface (`serve --host 0.0.0.0 --allow-remote-access`): 0.0.0.0 or `::`, in any spelling. */
export function isUnspecifiedAddress(host: string): boolean {
  const family = familyOf(host);
  return family !== undefined && unspecified.check(host, family);
}

/** Whether a server URL (`http://127.0.0.1:7300`, `http://[::1]:7300`) names a loopback address. */
export const isLoopbackUrl = (serverUrl: string) => isLoopbackAddress(new URL(serverUrl).hostname.replace(/^\[(.*)\]$/, '$1'));
