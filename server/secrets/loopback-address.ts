import { BlockList, isIP } from 'node:net';

// BlockList also matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 rules.
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Whether an address to listen on reaches this machine only: 127.0.0.0/8, ::1 (in any of its
 * spellings) or `localhost`. A host name, or an address of an interface, reaches further.
 */
export function isLoopbackAddress(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const version = isIP(host);
  return version !== 0 && loopback.check(host, version === 6 ? 'ipv6' : 'ipv4');
}

/** Whether a server URL (`http://127.0.0.1:7300`, `http://[::1]:7300`) names a loopback address. */
export const isLoopbackUrl = (serverUrl: string) => isLoopbackAddress(new URL(serverUrl).hostname.replace(/^\[(.*)\]$/, '$1'));
