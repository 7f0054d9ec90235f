/**
 * The operating systems of the generated fleet, with real names, versions and vendors, and their
 * share of the fleet (Windows about 55 %, macOS 25 %, Linux 18 %, other 2 %).
 *
 * Windows versions carry the month of their cumulative update (`@YYYY-MM`, see versions.ts)
 * because Microsoft's fixes are known by Patch Tuesday, not by build number.
 */
import type { osFamilies } from '../../contracts/enums.js';

export type OsFamily = (typeof osFamilies)[number];

/** What an endpoint is used for: decides which software it runs and how it is named. */
export type Profile =
  | 'windows-workstation'
  | 'windows-server'
  | 'macos'
  | 'linux-server'
  | 'linux-workstation'
  | 'freebsd'
  | 'chromeos'
  | 'appliance';

export interface OsRelease {
  /** Internal id, used by the product and CVE catalogues. */
  readonly id: string;
  readonly family: OsFamily;
  /** Edition names as agents report them; one is picked per endpoint. */
  readonly names: readonly string[];
  readonly vendor: string;
  /** Oldest first, in the notation of versions.ts. */
  readonly versions: readonly string[];
  /** [architecture, weight]. */
  readonly architectures: readonly (readonly [string, number])[];
  /** [profile, weight]. */
  readonly profiles: readonly (readonly [Profile, number])[];
  /** Percent of the fleet. */
  readonly share: number;
  /** The product key of its OS patch targets (product-catalog.ts). */
  readonly patchProduct: string;
}

const x64 = [['x64', 0.9], ['arm64', 0.1]] as const;
const serverX64 = [['x64', 1]] as const;
const linuxArch = [['x86_64', 0.88], ['aarch64', 0.12]] as const;
const workstation = [['windows-workstation', 1]] as const;
const server = [['windows-server', 1]] as const;

export const osReleases: readonly OsRelease[] = [
  // Windows: 55 %
  {
    id: 'win11-24h2', family: 'windows', names: ['Windows 11 Enterprise', 'Windows 11 Pro'], vendor: 'Microsoft',
    versions: ['10.0.26100.1742@2024-10', '10.0.26100.2605@2024-12', '10.0.26100.3476@2025-03', '10.0.26100.4349@2025-06', '10.0.26100.6899@2025-10'],
    architectures: x64, profiles: workstation, share: 19, patchProduct: 'windows',
  },
  {
    id: 'win11-25h2', family: 'windows', names: ['Windows 11 Enterprise', 'Windows 11 Pro'], vendor: 'Microsoft',
    versions: ['10.0.26200.6899@2025-10', '10.0.26200.7171@2025-11'],
    architectures: x64, profiles: workstation, share: 3, patchProduct: 'windows',
  },
  {
    id: 'win11-23h2', family: 'windows', names: ['Windows 11 Enterprise', 'Windows 11 Pro'], vendor: 'Microsoft',
    versions: ['10.0.22631.2861@2023-12', '10.0.22631.3737@2024-06', '10.0.22631.4460@2024-11', '10.0.22631.5039@2025-03', '10.0.22631.5624@2025-07'],
    architectures: x64, profiles: workstation, share: 11, patchProduct: 'windows',
  },
  {
    id: 'win10-22h2', family: 'windows', names: ['Windows 10 Enterprise', 'Windows 10 Pro'], vendor: 'Microsoft',
    versions: ['10.0.19045.3086@2023-06', '10.0.19045.3803@2023-12', '10.0.19045.4529@2024-06', '10.0.19045.5247@2024-12', '10.0.19045.5965@2025-06', '10.0.19045.6456@2025-10'],
    architectures: serverX64, profiles: workstation, share: 10, patchProduct: 'windows',
  },
  {
    id: 'win10-ltsc2019', family: 'windows', names: ['Windows 10 Enterprise LTSC 2019'], vendor: 'Microsoft',
    versions: ['10.0.17763.4499@2023-06', '10.0.17763.5936@2024-06', '10.0.17763.7009@2025-03'],
    architectures: serverX64, profiles: workstation, share: 0.8, patchProduct: 'windows',
  },
  {
    id: 'win7', family: 'windows', names: ['Windows 7 Professional'], vendor: 'Microsoft',
    versions: ['6.1.7601.24544@2020-01'],
    architectures: serverX64, profiles: workstation, share: 0.2, patchProduct: 'windows',
  },
  {
    id: 'ws2025', family: 'windows', names: ['Windows Server 2025 Standard', 'Windows Server 2025 Datacenter'], vendor: 'Microsoft',
    versions: ['10.0.26100.2894@2025-01', '10.0.26100.4349@2025-06', '10.0.26100.6899@2025-10'],
    architectures: serverX64, profiles: server, share: 1.2, patchProduct: 'windows',
  },
  {
    id: 'ws2022', family: 'windows', names: ['Windows Server 2022 Standard', 'Windows Server 2022 Datacenter'], vendor: 'Microsoft',
    versions: ['10.0.20348.1787@2023-06', '10.0.20348.2227@2024-01', '10.0.20348.2582@2024-07', '10.0.20348.3091@2025-01', '10.0.20348.3932@2025-07'],
    architectures: serverX64, profiles: server, share: 5.5, patchProduct: 'windows',
  },
  {
    id: 'ws2019', family: 'windows', names: ['Windows Server 2019 Standard', 'Windows Server 2019 Datacenter'], vendor: 'Microsoft',
    versions: ['10.0.17763.4499@2023-06', '10.0.17763.5329@2024-01', '10.0.17763.6054@2024-07', '10.0.17763.6775@2025-01', '10.0.17763.7558@2025-07'],
    architectures: serverX64, profiles: server, share: 3, patchProduct: 'windows',
  },
  {
    id: 'ws2016', family: 'windows', names: ['Windows Server 2016 Standard', 'Windows Server 2016 Datacenter'], vendor: 'Microsoft',
    versions: ['10.0.14393.5989@2023-06', '10.0.14393.6614@2024-01', '10.0.14393.7159@2024-07', '10.0.14393.7699@2025-01'],
    architectures: serverX64, profiles: server, share: 1, patchProduct: 'windows',
  },
  {
    id: 'ws2008r2', family: 'windows', names: ['Windows Server 2008 R2 Standard'], vendor: 'Microsoft',
    versions: ['6.1.7601.17514@2011-02', '6.1.7601.24544@2020-01', '6.1.7601.26321@2023-01'],
    architectures: serverX64, profiles: server, share: 0.3, patchProduct: 'windows',
  },
  // macOS: 25 %
  {
    id: 'macos-26', family: 'macos', names: ['macOS Tahoe'], vendor: 'Apple',
    versions: ['26.0', '26.0.1', '26.1'],
    architectures: [['arm64', 0.95], ['x86_64', 0.05]], profiles: [['macos', 1]], share: 7, patchProduct: 'macos',
  },
  {
    id: 'macos-15', family: 'macos', names: ['macOS Sequoia'], vendor: 'Apple',
    versions: ['15.0', '15.0.1', '15.1', '15.1.1', '15.2', '15.3', '15.3.2', '15.4.1', '15.5', '15.6', '15.6.1', '15.7'],
    architectures: [['arm64', 0.85], ['x86_64', 0.15]], profiles: [['macos', 1]], share: 11.5, patchProduct: 'macos',
  },
  {
    id: 'macos-14', family: 'macos', names: ['macOS Sonoma'], vendor: 'Apple',
    versions: ['14.0', '14.1', '14.1.1', '14.2.1', '14.3', '14.4.1', '14.5', '14.6.1', '14.7', '14.7.1', '14.7.4', '14.7.6'],
    architectures: [['arm64', 0.75], ['x86_64', 0.25]], profiles: [['macos', 1]], share: 5.5, patchProduct: 'macos',
  },
  {
    id: 'macos-13', family: 'macos', names: ['macOS Ventura'], vendor: 'Apple',
    versions: ['13.4.1', '13.5', '13.5.2', '13.6', '13.6.4', '13.7', '13.7.1'],
    architectures: [['arm64', 0.5], ['x86_64', 0.5]], profiles: [['macos', 1]], share: 1, patchProduct: 'macos',
  },
  // Linux: 18 %
  {
    id: 'ubuntu-2404', family: 'linux', names: ['Ubuntu'], vendor: 'Canonical',
    versions: ['24.04 LTS', '24.04.1 LTS', '24.04.2 LTS', '24.04.3 LTS'],
    architectures: linuxArch, profiles: [['linux-server', 0.8], ['linux-workstation', 0.2]], share: 6, patchProduct: 'linux-kernel',
  },
  {
    id: 'ubuntu-2204', family: 'linux', names: ['Ubuntu'], vendor: 'Canonical',
    versions: ['22.04.2 LTS', '22.04.3 LTS', '22.04.4 LTS', '22.04.5 LTS'],
    architectures: linuxArch, profiles: [['linux-server', 0.85], ['linux-workstation', 0.15]], share: 5, patchProduct: 'linux-kernel',
  },
  {
    id: 'rhel-9', family: 'linux', names: ['Red Hat Enterprise Linux'], vendor: 'Red Hat',
    versions: ['9.2', '9.3', '9.4', '9.5', '9.6'],
    architectures: linuxArch, profiles: [['linux-server', 1]], share: 4, patchProduct: 'linux-kernel',
  },
  {
    id: 'debian-12', family: 'linux', names: ['Debian GNU/Linux'], vendor: 'Debian',
    versions: ['12.2', '12.5', '12.7', '12.9', '12.11'],
    architectures: [['x86_64', 1]], profiles: [['linux-server', 1]], share: 3, patchProduct: 'linux-kernel',
  },
  // Other: 2 %
  {
    id: 'freebsd-14', family: 'other', names: ['FreeBSD'], vendor: 'The FreeBSD Project',
    versions: ['14.0-RELEASE', '14.1-RELEASE', '14.2-RELEASE', '14.3-RELEASE'],
    architectures: [['amd64', 1]], profiles: [['freebsd', 1]], share: 0.5, patchProduct: 'freebsd',
  },
  {
    id: 'chromeos', family: 'other', names: ['ChromeOS'], vendor: 'Google',
    versions: ['16002.51.0', '16063.45.2', '16181.61.0', '16328.55.0'],
    architectures: [['x86_64', 0.8], ['aarch64', 0.2]], profiles: [['chromeos', 1]], share: 0.6, patchProduct: 'chromeos',
  },
  {
    id: 'fortios', family: 'other', names: ['FortiOS'], vendor: 'Fortinet',
    versions: ['7.0.12', '7.0.14', '7.2.5', '7.2.7', '7.4.3', '7.4.8'],
    architectures: [['x86_64', 1]], profiles: [['appliance', 1]], share: 0.35, patchProduct: 'fortios',
  },
  {
    id: 'panos', family: 'other', names: ['PAN-OS'], vendor: 'Palo Alto Networks',
    versions: ['10.2.7', '10.2.9-h1', '11.0.3', '11.1.2', '11.1.2-h3', '11.1.6'],
    architectures: [['x86_64', 1]], profiles: [['appliance', 1]], share: 0.25, patchProduct: 'panos',
  },
  {
    id: 'netscaler', family: 'other', names: ['NetScaler ADC'], vendor: 'Citrix',
    versions: ['13.1-37.38', '13.1-49.13', '13.1-49.15', '14.1-8.50', '14.1-43.56'],
    architectures: [['x86_64', 1]], profiles: [['appliance', 1]], share: 0.15, patchProduct: 'netscaler',
  },
  {
    id: 'ivanti-ics', family: 'other', names: ['Ivanti Connect Secure'], vendor: 'Ivanti',
    versions: ['9.1R18', '22.4R2', '22.5R2.1', '22.7R2.6'],
    architectures: [['x86_64', 1]], profiles: [['appliance', 1]], share: 0.15, patchProduct: 'ivanti-ics',
  },
];

/** Server roles by profile, with weights: a role decides which server software a machine runs. */
export const serverRoles: Readonly<Partial<Record<Profile, readonly (readonly [string, number])[]>>> = {
  'windows-server': [
    ['dc', 12], ['file', 12], ['sql', 14], ['app', 20], ['exch', 4], ['sp', 4], ['web', 12], ['print', 6], ['rds', 6], ['mft', 3],
  ],
  'linux-server': [
    ['web', 22], ['app', 22], ['db', 14], ['ci', 5], ['wiki', 3], ['mq', 4], ['mail', 3], ['k8s', 17], ['bastion', 4], ['mon', 6],
  ],
};

/** Departments of the people who use workstations. */
export const departments = ['FIN', 'HR', 'ENG', 'MKT', 'SAL', 'OPS', 'LEG', 'IT', 'SUP', 'EXE'] as const;
export const departmentWeights = [10, 5, 25, 8, 15, 10, 3, 8, 12, 4] as const;
