/**
 * Generated endpoints: plausible hostnames for their role, private addresses, real operating
 * systems in fleet-like proportions, an agent on most of them.
 */
import type { Endpoint } from '../../contracts/endpoint.js';
import { DAY_MS, iso, referenceMs } from './clock.js';
import { departments, departmentWeights, type OsRelease, osReleases, type Profile, serverRoles } from './os-catalog.js';
import type { Random } from './random.js';
import { type CatalogVersion, parseCatalogVersion } from './versions.js';

/** An endpoint with what the rest of the generator needs to know about it. */
export interface EndpointContext {
  readonly record: Endpoint;
  readonly index: number;
  readonly os: OsRelease;
  /** The edition name the endpoint reports. */
  readonly osName: string;
  readonly osVersion: CatalogVersion;
  readonly osVersionIndex: number;
  readonly profile: Profile;
  /** Server role, or department code for the machines of people. */
  readonly role: string;
  readonly region: 'amer' | 'emea' | 'apac';
  /** Running in a public cloud (named after its address, as EC2 does). */
  readonly cloud: boolean;
  readonly hasAgent: boolean;
  readonly createdMs: number;
  /** Homebrew prefix of the architecture (macOS). */
  readonly homebrew: string;
  /** Vulnerability scanners that look at this endpoint. */
  readonly scanners: readonly string[];
}

const sites = [
  ['HQ', 10, 'amer', 18], ['NYC', 20, 'amer', 12], ['SFO', 21, 'amer', 10], ['TOR', 22, 'amer', 5],
  ['LON', 30, 'emea', 14], ['AMS', 31, 'emea', 8], ['FRA', 32, 'emea', 8], ['SGP', 40, 'apac', 6], ['SYD', 41, 'apac', 5],
] as const;

const firstNames = [
  'james', 'maria', 'wei', 'fatima', 'john', 'anna', 'lucas', 'sofia', 'david', 'emma', 'mohammed', 'olivia', 'daniel', 'mia',
  'hiroshi', 'chloe', 'carlos', 'amara', 'thomas', 'lea', 'ravi', 'sara', 'michael', 'julia', 'noah', 'ines', 'ethan', 'nina',
  'lars', 'priya', 'kevin', 'grace', 'mateo', 'zoe', 'samuel', 'aisha', 'paul', 'hannah', 'omar', 'elena', 'ben', 'yuki',
];
const lastNames = [
  'smith', 'garcia', 'chen', 'khan', 'doe', 'muller', 'rossi', 'silva', 'nguyen', 'kowalski', 'jensen', 'martin', 'kim', 'patel',
  'brown', 'dubois', 'tanaka', 'okafor', 'johnson', 'novak', 'schmidt', 'lopez', 'wilson', 'haddad', 'larsen', 'costa', 'ivanova',
  'murphy', 'fischer', 'santos', 'ali', 'taylor', 'nakamura', 'berg', 'moreau', 'walker', 'sato', 'reyes', 'clark', 'weber',
];
const agentVersions = ['4.8.2', '4.9.0', '4.9.3', '4.10.1', '4.11.0', '4.11.2', '4.12.0'];
const serverCodes: Record<string, string> = {
  dc: 'DC', file: 'FS', sql: 'SQL', app: 'APP', exch: 'EXCH', sp: 'SP', web: 'WEB', print: 'PRN', rds: 'RDS', mft: 'MFT',
};
const linuxNames: Record<string, string> = {
  web: 'web', app: 'app', db: 'db', ci: 'ci', wiki: 'wiki', mq: 'mq', mail: 'mail', k8s: 'k8s-node', bastion: 'bastion', mon: 'mon',
};
const applianceNames: Record<string, string> = { fortios: 'fgt', panos: 'pa', netscaler: 'adc', 'ivanti-ics': 'vpn' };
const agentShare: Record<Profile, number> = {
  'windows-workstation': 0.92, 'windows-server': 0.88, macos: 0.93, 'linux-server': 0.8, 'linux-workstation': 0.85,
  freebsd: 0.3, chromeos: 0, appliance: 0,
};
const alphanumeric = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function cumulative(weights: readonly number[]): Float64Array {
  const sums = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => (sums[i] = total += w));
  return sums;
}

const osCumulative = cumulative(osReleases.map((os) => os.share));
const siteCumulative = cumulative(sites.map((s) => s[3]));
const departmentCumulative = cumulative(departmentWeights);
const parsedOsVersions = new Map(osReleases.map((os) => [os.id, os.versions.map(parseCatalogVersion)]));

function pickWeighted<T>(random: Random, pairs: readonly (readonly [T, number])[]): T {
  let u = random.float() * pairs.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of pairs) {
    if ((u -= weight) < 0) return value;
  }
  return (pairs[pairs.length - 1] as readonly [T, number])[0];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Generates `count` endpoints. */
export function generateEndpoints(count: number, random: Random): EndpointContext[] {
  const hostnames = new Set<string>();
  const addresses = new Set<string>();
  const macs = new Set<string>();
  const counters = new Map<string, number>();
  const scannerSets = new Map<string, readonly string[]>();
  const result: EndpointContext[] = [];

  const nextNumber = (key: string): number => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  const unique = (set: Set<string>, make: () => string): string => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const value = make();
      if (!set.has(value)) {
        set.add(value);
        return value;
      }
    }
    throw new Error('could not generate a unique value');
  };
  const uniqueHostname = (name: string): string => {
    let candidate = name;
    for (let n = 2; hostnames.has(candidate); n++) candidate = `${name}-${n}`;
    hostnames.add(candidate);
    return candidate;
  };

  for (let index = 0; index < count; index++) {
    const os = osReleases[random.weighted(osCumulative)] as OsRelease;
    const profile = pickWeighted(random, os.profiles);
    const roles = serverRoles[profile];
    const site = sites[random.weighted(siteCumulative)] as (typeof sites)[number];
    const [siteCode, siteOctet, region] = site;
    const department = departments[random.weighted(departmentCumulative)] as string;
    const role = roles ? pickWeighted(random, roles) : profile === 'linux-workstation' ? 'ENG' : department;
    const cloud = profile === 'linux-server' && random.chance(0.35);
    const versions = parsedOsVersions.get(os.id) as CatalogVersion[];
    const osVersionIndex = random.skewedToLast(versions.length);
    const architecture = pickWeighted(random, os.architectures);
    const hasAgent = random.chance(agentShare[profile]);
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);

    // Addresses: offices on 10.<site>.x.x, remote and branch machines on 192.168.x.x, data
    // centres on 172.16-31.x.x, cloud instances on 10.0-3.x.x.
    const workstation = profile === 'windows-workstation' || profile === 'macos' || profile === 'linux-workstation' || profile === 'chromeos';
    const ip = unique(addresses, () => {
      if (cloud) return `10.${random.int(4)}.${random.int(256)}.${random.intBetween(4, 254)}`;
      if (workstation) {
        return random.chance(0.15)
          ? `192.168.${random.intBetween(1, 30)}.${random.intBetween(2, 254)}`
          : `10.${siteOctet}.${random.intBetween(16, 63)}.${random.intBetween(2, 254)}`;
      }
      if (profile === 'appliance') return `10.${siteOctet}.${random.int(8)}.${random.intBetween(1, 30)}`;
      return `172.${random.intBetween(16, 31)}.${random.int(256)}.${random.intBetween(2, 254)}`;
    });

    let hostname: string;
    switch (profile) {
      case 'windows-workstation': {
        const style = random.float();
        hostname = style < 0.45
          ? `WKS-${department}-${pad(random.intBetween(1, 9999), 4)}`
          : style < 0.8
            ? `LT-${department}-${pad(random.intBetween(1, 9999), 4)}`
            : `DESKTOP-${Array.from({ length: 7 }, () => random.pick([...alphanumeric])).join('')}`;
        break;
      }
      case 'windows-server': {
        const code = serverCodes[role] ?? 'SRV';
        hostname = role === 'dc' ? `DC-${siteCode}-${pad(nextNumber(`dc-${siteCode}`), 2)}` : `SRV-${code}-${pad(nextNumber(code), 2)}`;
        break;
      }
      case 'macos': {
        const style = random.float();
        const model = style < 0.55 ? 'mbp' : style < 0.75 ? 'mba' : 'imac';
        hostname = style < 0.85
          ? `${model}-${first[0]}${last}-${pad(random.intBetween(1, 999), 3)}`
          : `${first[0]?.toUpperCase()}${first.slice(1)}s-MacBook-Pro`;
        break;
      }
      case 'linux-server': {
        if (cloud) {
          hostname = `ip-${ip.replaceAll('.', '-')}`;
        } else {
          const environment = random.pick(['prod', 'prod', 'prod', 'stg', 'dev']);
          const name = linuxNames[role] ?? 'srv';
          hostname = `${name}-${environment}-${pad(nextNumber(`${name}-${environment}`), 2)}`;
        }
        break;
      }
      case 'linux-workstation':
        hostname = `dev-${first[0]}${last}-${pad(random.intBetween(1, 99), 2)}`;
        break;
      case 'freebsd':
        hostname = random.chance(0.5) ? `nas-${pad(nextNumber('nas'), 2)}` : `pf-edge-${pad(nextNumber('pf-edge'), 2)}`;
        break;
      case 'chromeos':
        hostname = `CB-${department}-${pad(random.intBetween(1, 9999), 4)}`;
        break;
      case 'appliance': {
        const prefix = applianceNames[os.id] ?? 'appliance';
        hostname = `${prefix}-${siteCode.toLowerCase()}-${pad(nextNumber(`${prefix}-${siteCode}`), 2)}`;
        break;
      }
    }
    hostname = uniqueHostname(hostname);

    // MACs: VMware and Hyper-V prefixes for virtual servers, locally administered ones in the
    // cloud, random unicast ones for hardware; unknown when only seen across a router.
    const macUnknown = !hasAgent && random.chance(profile === 'appliance' ? 0.2 : 0.5);
    const mac = macUnknown
      ? null
      : unique(macs, () => {
          const bytes = [random.int(256), random.int(256), random.int(256), random.int(256), random.int(256), random.int(256)];
          const virtual = profile === 'windows-server' || (profile === 'linux-server' && !cloud);
          if (cloud) bytes[0] = random.pick([0x02, 0x06, 0x0a, 0x0e]);
          else if (virtual && random.chance(0.8)) bytes.splice(0, 3, ...(random.chance(0.6) ? [0x00, 0x50, 0x56] : [0x00, 0x15, 0x5d]));
          else bytes[0] = (bytes[0] as number) & 0xfc;
          return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
        });

    const createdMs = referenceMs - (1 + random.float() * 729) * DAY_MS;
    const updatedMs = hasAgent
      ? Math.max(createdMs, referenceMs - random.float() * 2 * DAY_MS)
      : createdMs + random.float() * (referenceMs - createdMs);

    const scanners: string[] = [];
    if (hasAgent) scanners.push('agent-scan');
    const primary = region === 'emea' ? 'qualys' : 'tenable';
    scanners.push(primary);
    if (random.chance(0.4)) scanners.push(primary === 'qualys' ? 'tenable' : 'qualys');
    if ((profile === 'windows-workstation' || profile === 'windows-server' || profile === 'macos') && random.chance(0.6)) scanners.push('microsoft-defender');
    if (!hasAgent || random.chance(0.45)) scanners.push('network-scan');
    const scannerKey = scanners.join(',');
    let sharedScanners = scannerSets.get(scannerKey);
    if (!sharedScanners) scannerSets.set(scannerKey, (sharedScanners = scanners));

    const osVersion = versions[osVersionIndex] as CatalogVersion;
    const osName = random.pick(os.names);
    const record: Endpoint = {
      id: random.uuid(),
      hostname,
      ip: workstation && !hasAgent && random.chance(0.1) ? null : ip,
      mac_address: mac,
      operating_system: { name: osName, version: osVersion.shown, family: os.family, vendor: os.vendor, architecture },
      agent_id: hasAgent ? random.uuid() : null,
      agent_version: hasAgent ? (agentVersions[random.skewedToLast(agentVersions.length)] as string) : null,
      created_at: iso(createdMs),
      updated_at: iso(updatedMs),
    };
    result.push({
      record, index, os, osName, osVersion, osVersionIndex, profile, role, region, cloud, hasAgent, createdMs,
      homebrew: architecture === 'arm64' ? '/opt/homebrew' : '/usr/local',
      scanners: sharedScanners,
    });
  }
  return result;
}
