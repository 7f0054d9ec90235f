/**
 * What runs on the generated endpoints: real vendors and products, versions that were really
 * shipped (oldest first, in the notation of versions.ts), install paths and package names as the
 * platform lays them out. The CVE catalogue refers to these products by key.
 *
 * Linux packages are listed per distribution with the distribution's own package versions; each
 * one says which upstream version it is patched like (`shown=compared`), as distributions backport.
 */
import type { targetTypes } from '../../contracts/enums.js';
import type { Profile } from './os-catalog.js';

export type TargetType = (typeof targetTypes)[number];

/** [package manager, package name]; [null, null] for an install no package manager knows of. */
export type PackageRef = readonly [manager: string | null, name: string | null];

export interface InstallDef {
  readonly profiles: readonly Profile[];
  /** Only on these OS releases (os-catalog.ts ids); on every OS of the profiles when absent. */
  readonly os?: readonly string[];
  /** Only on servers of these roles; on every role when absent. */
  readonly roles?: readonly string[];
  /** Oldest first; 'os' for what ships with the operating system (its version is the OS version). */
  readonly versions: readonly string[] | 'os';
  /**
   * Install path template, or null. Tokens: {v} version, {major}, {mm} major and minor digits
   * (3.12 → 312), {m.m} major.minor, {brew} the Homebrew prefix of the architecture, {multiarch} the
   * Debian multiarch triplet (x86_64-linux-gnu), {app} an application folder.
   */
  readonly path: string | null;
  /** One is picked per target; tokens as in path. */
  readonly packages: readonly PackageRef[];
  /** How likely an endpoint of the profile has it, 0 to 1. */
  readonly weight: number;
}

export interface ProductDef {
  readonly key: string;
  readonly type: TargetType;
  /** Vendor and product name as reported; null for OS patches, which take the endpoint's OS vendor and name. */
  readonly vendor: string | null;
  readonly name: string | null;
  /** CPE 2.3 part, vendor and product (`a:google:chrome`): the target's identity is `cpe:2.3:<this>:<version>`. */
  readonly cpe: string;
  readonly installs: readonly InstallDef[];
}

const none: PackageRef = [null, null];
type Os = 'ubuntu-2204' | 'ubuntu-2404' | 'debian-12' | 'rhel-9';

function on(
  profiles: Profile | readonly Profile[],
  weight: number,
  versions: readonly string[] | 'os',
  path: string | null,
  packages: readonly PackageRef[] = [none],
  where: { os?: readonly string[]; roles?: readonly string[] } = {},
): InstallDef {
  return { profiles: typeof profiles === 'string' ? [profiles] : profiles, weight, versions, path, packages, ...where };
}

/** One install per distribution: apt on Debian and Ubuntu, dnf on RHEL. */
function distros(
  profiles: readonly Profile[],
  weight: number,
  byOs: Partial<Record<Os, readonly string[]>>,
  packageName: string | { apt: string; dnf: string },
  path: string | { apt: string; dnf: string } | null,
  roles?: readonly string[],
): InstallDef[] {
  return Object.entries(byOs).map(([os, versions]) => {
    const manager = os.startsWith('rhel') ? 'dnf' : 'apt';
    const name = typeof packageName === 'string' ? packageName : packageName[manager];
    const where = path === null || typeof path === 'string' ? path : path[manager];
    return on(profiles, weight, versions as readonly string[], where, [[manager, name]], roles ? { os: [os], roles } : { os: [os] });
  });
}

const W: Profile = 'windows-workstation';
const WS: Profile = 'windows-server';
const MAC: Profile = 'macos';
const LS: Profile = 'linux-server';
const LW: Profile = 'linux-workstation';
const LINUX: readonly Profile[] = [LS, LW];

const chromeVersions = [
  '109.0.5414.120', '112.0.5615.49', '114.0.5735.90', '116.0.5845.140', '116.0.5845.187', '117.0.5938.92', '119.0.6045.159',
  '120.0.6099.109', '120.0.6099.225', '124.0.6367.118', '124.0.6367.207', '126.0.6478.126', '128.0.6613.84',
  '131.0.6778.139', '134.0.6998.165', '137.0.7151.68', '138.0.7204.168', '141.0.7390.122',
];
const firefoxVersions = ['115.3.1', '117.0', '118.0.2', '121.0', '128.0.3', '131.0', '131.0.2', '133.0.3', '138.0.1', '144.0'];
const thunderbirdVersions = ['102.15.0', '115.2.0', '115.3.1', '115.10.1', '128.2.0', '128.3.1', '128.11.0', '140.3.0'];
const edgeVersions = [
  '109.0.1518.140@2023-07', '116.0.1938.69@2023-08', '118.0.2088.76@2023-10', '122.0.2365.92@2024-03', '126.0.2592.87@2024-06',
  '130.0.2849.80@2024-10', '135.0.3179.85@2025-04', '138.0.3351.95@2025-07', '141.0.3537.71@2025-10',
];
const acrobatVersions = ['22.003.20282', '22.003.20310', '23.001.20093', '23.006.20320', '24.002.20933', '25.001.20693'];
const zoomVersions = ['5.16.10', '5.17.11', '6.0.12', '6.1.11', '6.3.5', '6.5.3'];
const slackVersions = ['4.33.90', '4.36.140', '4.39.95', '4.41.105', '4.45.64'];
const vscodeVersions = ['1.85.2', '1.89.1', '1.92.2', '1.96.4', '1.101.2', '1.104.3'];
const temurinVersions = ['11.0.14.1+1', '17.0.2+8', '17.0.9+9', '17.0.14+7', '21.0.2+13', '21.0.7+6'];
const nodeVersions = ['18.19.1', '20.11.1', '20.18.0', '22.12.0', '22.17.1'];
const tomcatVersions = ['9.0.83', '9.0.98', '9.0.102', '10.1.18', '10.1.34', '10.1.40', '11.0.2', '11.0.8'];
const dockerEngineVersions = ['24.0.7', '25.0.3', '26.1.4', '27.3.1', '28.3.2'];

/** Every product of the generated fleet. */
export const productCatalog: readonly ProductDef[] = [
  // Operating system patches: version and name are the endpoint's own.
  {
    key: 'windows', type: 'os_patch', vendor: null, name: null, cpe: 'o:microsoft:windows',
    installs: [on([W, WS], 1, 'os', null, [['windows-update', null]])],
  },
  {
    key: 'macos', type: 'os_patch', vendor: null, name: null, cpe: 'o:apple:macos',
    installs: [on(MAC, 1, 'os', null, [['softwareupdate', null]])],
  },
  {
    key: 'freebsd', type: 'os_patch', vendor: null, name: null, cpe: 'o:freebsd:freebsd',
    installs: [on('freebsd', 1, 'os', null, [['freebsd-update', null]])],
  },
  { key: 'chromeos', type: 'os_patch', vendor: null, name: null, cpe: 'o:google:chrome_os', installs: [on('chromeos', 1, 'os', null)] },
  { key: 'fortios', type: 'os_patch', vendor: null, name: null, cpe: 'o:fortinet:fortios', installs: [on('appliance', 1, 'os', null, [none], { os: ['fortios'] })] },
  { key: 'panos', type: 'os_patch', vendor: null, name: null, cpe: 'o:paloaltonetworks:pan-os', installs: [on('appliance', 1, 'os', null, [none], { os: ['panos'] })] },
  {
    key: 'netscaler', type: 'os_patch', vendor: null, name: null, cpe: 'a:citrix:netscaler_application_delivery_controller',
    installs: [on('appliance', 1, 'os', null, [none], { os: ['netscaler'] })],
  },
  { key: 'ivanti-ics', type: 'os_patch', vendor: null, name: null, cpe: 'a:ivanti:connect_secure', installs: [on('appliance', 1, 'os', null, [none], { os: ['ivanti-ics'] })] },
  {
    key: 'linux-kernel', type: 'os_patch', vendor: 'Linux', name: 'Linux kernel', cpe: 'o:linux:linux_kernel',
    installs: [
      ...distros(LINUX, 1, {
        'ubuntu-2204': ['5.15.0-88-generic=5.15.126', '5.15.0-101-generic=5.15.148', '5.15.0-113-generic=5.15.160', '5.15.0-130-generic=5.15.170', '6.8.0-60-generic=6.8.12'],
        'ubuntu-2404': ['6.8.0-31-generic=6.8.4', '6.8.0-51-generic=6.8.12', '6.8.0-71-generic=6.8.12'],
        'rhel-9': ['5.14.0-284.11.1.el9_2=5.15.30', '5.14.0-362.8.1.el9_3=5.15.30', '5.14.0-427.13.1.el9_4=6.8', '5.14.0-503.11.1.el9_5=6.8', '5.14.0-570.17.1.el9_6=6.8'],
      }, { apt: 'linux-image-generic', dnf: 'kernel' }, null),
      ...distros(LINUX, 1, {
        'debian-12': ['6.1.0-13-amd64=6.1.55', '6.1.0-18-amd64=6.1.76', '6.1.0-25-amd64=6.1.106', '6.1.0-32-amd64=6.1.129', '6.1.0-37-amd64=6.1.140'],
      }, 'linux-image-amd64', null),
    ],
  },

  // Services of the operating system: their version is the OS build.
  {
    key: 'win-print-spooler', type: 'service', vendor: 'Microsoft', name: 'Print Spooler', cpe: 'o:microsoft:windows',
    installs: [
      on(W, 0.2, 'os', 'C:\\Windows\\System32\\spoolsv.exe'),
      on(WS, 0.9, 'os', 'C:\\Windows\\System32\\spoolsv.exe', [none], { roles: ['print', 'file', 'dc', 'rds'] }),
    ],
  },
  {
    key: 'win-rds', type: 'service', vendor: 'Microsoft', name: 'Remote Desktop Services', cpe: 'o:microsoft:windows',
    installs: [on(W, 0.05, 'os', 'C:\\Windows\\System32\\termsrv.dll'), on(WS, 0.35, 'os', 'C:\\Windows\\System32\\termsrv.dll')],
  },
  {
    key: 'win-netlogon', type: 'service', vendor: 'Microsoft', name: 'Netlogon', cpe: 'o:microsoft:windows',
    installs: [on(WS, 1, 'os', 'C:\\Windows\\System32\\lsass.exe', [none], { roles: ['dc'] })],
  },
  {
    key: 'win-smb', type: 'service', vendor: 'Microsoft', name: 'SMB Server', cpe: 'o:microsoft:windows',
    installs: [on(W, 0.04, 'os', 'C:\\Windows\\System32\\drivers\\srv2.sys'), on(WS, 0.5, 'os', 'C:\\Windows\\System32\\drivers\\srv2.sys')],
  },
  {
    key: 'win-task-scheduler', type: 'service', vendor: 'Microsoft', name: 'Task Scheduler', cpe: 'o:microsoft:windows',
    installs: [on([W, WS], 0.3, 'os', 'C:\\Windows\\System32\\schedsvc.dll')],
  },
  {
    key: 'win-installer', type: 'service', vendor: 'Microsoft', name: 'Windows Installer', cpe: 'o:microsoft:windows',
    installs: [on([W, WS], 0.3, 'os', 'C:\\Windows\\System32\\msiexec.exe')],
  },
  {
    key: 'win-webclient', type: 'service', vendor: 'Microsoft', name: 'WebClient', cpe: 'o:microsoft:windows',
    installs: [on(W, 0.3, 'os', 'C:\\Windows\\System32\\webclnt.dll')],
  },
  {
    key: 'win-rasman', type: 'service', vendor: 'Microsoft', name: 'Remote Access Connection Manager', cpe: 'o:microsoft:windows',
    installs: [on([W, WS], 0.25, 'os', 'C:\\Windows\\System32\\rasmans.dll')],
  },
  {
    key: 'iis', type: 'service', vendor: 'Microsoft', name: 'Internet Information Services', cpe: 'a:microsoft:internet_information_services',
    installs: [
      on(WS, 0.9, ['10.0'], 'C:\\Windows\\System32\\inetsrv', [none], { roles: ['web', 'sp', 'exch', 'app'] }),
    ],
  },
  {
    key: 'mssql', type: 'service', vendor: 'Microsoft', name: 'SQL Server', cpe: 'a:microsoft:sql_server',
    installs: [
      on(WS, 1, ['15.0.4335.1', '15.0.4415.2', '16.0.4105.2', '16.0.4135.4', '16.0.4185.3'], 'C:\\Program Files\\Microsoft SQL Server', [none], { roles: ['sql', 'sp'] }),
    ],
  },

  // Browsers and mail clients.
  {
    key: 'chrome', type: 'software', vendor: 'Google', name: 'Chrome', cpe: 'a:google:chrome',
    installs: [
      on(W, 0.85, chromeVersions, 'C:\\Program Files\\Google\\Chrome\\Application', [['winget', 'Google.Chrome'], ['chocolatey', 'googlechrome'], ['msi', 'Google Chrome']]),
      on(WS, 0.4, chromeVersions, 'C:\\Program Files\\Google\\Chrome\\Application', [['msi', 'Google Chrome'], none]),
      on(MAC, 0.75, chromeVersions, '/Applications/Google Chrome.app', [['homebrew', 'google-chrome'], none, none]),
      on(LW, 0.5, chromeVersions, '/opt/google/chrome', [['apt', 'google-chrome-stable']]),
    ],
  },
  {
    key: 'edge', type: 'software', vendor: 'Microsoft', name: 'Edge', cpe: 'a:microsoft:edge_chromium',
    installs: [
      on(W, 0.95, edgeVersions, 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application'),
      on(WS, 0.75, edgeVersions, 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application'),
      on(MAC, 0.15, edgeVersions, '/Applications/Microsoft Edge.app', [['homebrew', 'microsoft-edge'], none]),
    ],
  },
  {
    key: 'firefox', type: 'software', vendor: 'Mozilla', name: 'Firefox', cpe: 'a:mozilla:firefox',
    installs: [
      on(W, 0.4, firefoxVersions, 'C:\\Program Files\\Mozilla Firefox', [['winget', 'Mozilla.Firefox'], ['chocolatey', 'firefox'], none]),
      on(MAC, 0.35, firefoxVersions, '/Applications/Firefox.app', [['homebrew', 'firefox'], none]),
      on(LW, 0.8, firefoxVersions, '/snap/firefox/current', [['snap', 'firefox']]),
    ],
  },
  {
    key: 'thunderbird', type: 'software', vendor: 'Mozilla', name: 'Thunderbird', cpe: 'a:mozilla:thunderbird',
    installs: [
      on(W, 0.1, thunderbirdVersions, 'C:\\Program Files\\Mozilla Thunderbird', [['winget', 'Mozilla.Thunderbird'], none]),
      on(MAC, 0.08, thunderbirdVersions, '/Applications/Thunderbird.app', [['homebrew', 'thunderbird'], none]),
      on(LW, 0.2, thunderbirdVersions, '/snap/thunderbird/current', [['snap', 'thunderbird']]),
    ],
  },
  {
    key: 'safari', type: 'software', vendor: 'Apple', name: 'Safari', cpe: 'a:apple:safari',
    installs: [
      on(MAC, 1, ['16.5.2', '16.6', '17.0', '17.1.2', '17.3.1', '17.6', '18.1.1'], '/Applications/Safari.app', [none], { os: ['macos-13'] }),
      on(MAC, 1, ['17.0', '17.1', '17.1.2', '17.2.1', '17.3.1', '17.4.1', '17.5', '17.6', '18.0.1', '18.1', '18.1.1', '18.3.1', '18.5', '18.6'], '/Applications/Safari.app', [none], { os: ['macos-14'] }),
      on(MAC, 1, ['18.0', '18.0.1', '18.1', '18.1.1', '18.2', '18.3', '18.4', '18.5', '18.6'], '/Applications/Safari.app', [none], { os: ['macos-15'] }),
      on(MAC, 1, ['26.0', '26.0.1', '26.1'], '/Applications/Safari.app', [none], { os: ['macos-26'] }),
    ],
  },

  // Office and collaboration.
  {
    key: 'office-m365', type: 'software', vendor: 'Microsoft', name: 'Microsoft 365 Apps for enterprise', cpe: 'a:microsoft:365_apps',
    installs: [
      on(W, 0.8, ['16.0.14332.20503@2023-02', '16.0.16130.20714@2023-08', '16.0.17328.20282@2024-03', '16.0.17928.20538@2025-04', '16.0.18827.20176@2025-10'],
        'C:\\Program Files\\Microsoft Office\\root\\Office16', [['click-to-run', 'O365ProPlusRetail']]),
      on(WS, 0.9, ['16.0.16130.20714@2023-08', '16.0.17328.20282@2024-03', '16.0.17928.20538@2025-04'],
        'C:\\Program Files\\Microsoft Office\\root\\Office16', [['click-to-run', 'O365ProPlusRetail']], { roles: ['rds'] }),
    ],
  },
  {
    key: 'office-2016', type: 'software', vendor: 'Microsoft', name: 'Office Professional Plus 2016', cpe: 'a:microsoft:office',
    installs: [
      on(W, 0.06, ['16.0.4266.1001@2015-09', '16.0.5387.1000@2023-03', '16.0.5495.1000@2025-04'], 'C:\\Program Files (x86)\\Microsoft Office\\Office16', [['msi', 'ProPlus']]),
    ],
  },
  {
    key: 'word-mac', type: 'software', vendor: 'Microsoft', name: 'Microsoft Word', cpe: 'a:microsoft:word',
    installs: [on(MAC, 0.4, ['16.78', '16.86', '16.93', '16.98', '16.101'], '/Applications/Microsoft Word.app', [['homebrew', 'microsoft-word'], none, none])],
  },
  {
    key: 'teams', type: 'software', vendor: 'Microsoft', name: 'Microsoft Teams', cpe: 'a:microsoft:teams',
    installs: [
      on(W, 0.45, ['24215.1007.3082.1590', '24335.208.3315.1951', '25044.2208.3471.2155', '25153.1010.3727.5483'], null, [['msix', 'MSTeams']]),
      on(MAC, 0.35, ['24215.1007.3082.1590', '25044.2208.3471.2155', '25153.1010.3727.5483'], '/Applications/Microsoft Teams.app', [['homebrew', 'microsoft-teams'], none]),
    ],
  },
  {
    key: 'slack', type: 'software', vendor: 'Slack Technologies', name: 'Slack', cpe: 'a:slack:slack',
    installs: [
      on(W, 0.2, slackVersions, 'C:\\Program Files\\Slack', [['winget', 'SlackTechnologies.Slack'], ['msi', 'Slack (Machine)']]),
      on(MAC, 0.35, slackVersions, '/Applications/Slack.app', [['homebrew', 'slack'], none]),
      on(LW, 0.2, slackVersions, '/usr/lib/slack', [['snap', 'slack'], ['apt', 'slack-desktop']]),
    ],
  },
  {
    key: 'zoom', type: 'software', vendor: 'Zoom Communications', name: 'Zoom Workplace', cpe: 'a:zoom:zoom',
    installs: [
      on(W, 0.35, zoomVersions, 'C:\\Program Files\\Zoom\\bin', [['winget', 'Zoom.Zoom'], ['msi', 'Zoom Workplace (64-bit)']]),
      on(MAC, 0.4, zoomVersions, '/Applications/zoom.us.app', [['homebrew', 'zoom'], none]),
      on(LW, 0.2, zoomVersions, '/opt/zoom', [['apt', 'zoom']]),
    ],
  },

  // Desktop utilities.
  {
    key: '7zip', type: 'software', vendor: 'Igor Pavlov', name: '7-Zip', cpe: 'a:7-zip:7-zip',
    installs: [
      on(W, 0.6, ['16.04', '19.00', '22.01', '23.01', '24.06', '24.08', '24.09', '25.01'], 'C:\\Program Files\\7-Zip', [['winget', '7zip.7zip'], ['chocolatey', '7zip'], ['msi', '7-Zip']]),
      on(WS, 0.4, ['19.00', '22.01', '23.01', '24.08', '24.09', '25.01'], 'C:\\Program Files\\7-Zip', [['msi', '7-Zip'], none]),
    ],
  },
  {
    key: 'winrar', type: 'software', vendor: 'RARLAB', name: 'WinRAR', cpe: 'a:rarlab:winrar',
    installs: [on(W, 0.2, ['5.91', '6.11', '6.22', '6.23', '6.24', '7.01', '7.13'], 'C:\\Program Files\\WinRAR', [['winget', 'RARLab.WinRAR'], ['chocolatey', 'winrar'], none])],
  },
  {
    key: 'acrobat-reader', type: 'software', vendor: 'Adobe', name: 'Acrobat Reader', cpe: 'a:adobe:acrobat_reader_dc',
    installs: [
      on(W, 0.65, acrobatVersions, 'C:\\Program Files\\Adobe\\Acrobat DC\\Acrobat', [['winget', 'Adobe.Acrobat.Reader.64-bit'], ['chocolatey', 'adobereader'], none]),
      on(MAC, 0.45, acrobatVersions, '/Applications/Adobe Acrobat Reader.app', [['homebrew', 'adobe-acrobat-reader'], none]),
    ],
  },
  {
    key: 'notepadpp', type: 'software', vendor: 'Don Ho', name: 'Notepad++', cpe: 'a:notepad-plus-plus:notepad\\+\\+',
    installs: [
      on(W, 0.3, ['7.9.5', '8.4.9', '8.5.6', '8.5.8', '8.6.9', '8.7.9', '8.8.3'], 'C:\\Program Files\\Notepad++', [['winget', 'Notepad++.Notepad++'], ['chocolatey', 'notepadplusplus']]),
      on(WS, 0.3, ['7.9.5', '8.4.9', '8.5.6', '8.6.9', '8.8.3'], 'C:\\Program Files\\Notepad++', [['chocolatey', 'notepadplusplus'], none]),
    ],
  },
  {
    key: 'vlc', type: 'software', vendor: 'VideoLAN', name: 'VLC media player', cpe: 'a:videolan:vlc_media_player',
    installs: [
      on(W, 0.2, ['3.0.11', '3.0.18', '3.0.20', '3.0.21'], 'C:\\Program Files\\VideoLAN\\VLC', [['winget', 'VideoLAN.VLC'], ['chocolatey', 'vlc'], none]),
      on(MAC, 0.2, ['3.0.18', '3.0.20', '3.0.21'], '/Applications/VLC.app', [['homebrew', 'vlc'], none]),
    ],
  },
  {
    key: 'putty', type: 'software', vendor: 'Simon Tatham', name: 'PuTTY', cpe: 'a:putty:putty',
    installs: [
      on(W, 0.15, ['0.76', '0.78', '0.80', '0.81', '0.83'], 'C:\\Program Files\\PuTTY', [['winget', 'PuTTY.PuTTY'], ['chocolatey', 'putty'], none]),
      on(WS, 0.15, ['0.76', '0.78', '0.80', '0.81', '0.83'], 'C:\\Program Files\\PuTTY', [['chocolatey', 'putty'], none]),
    ],
  },
  {
    key: 'keepass', type: 'software', vendor: 'Dominik Reichl', name: 'KeePass Password Safe', cpe: 'a:keepass:keepass',
    installs: [on(W, 0.12, ['2.51.1', '2.53.1', '2.54', '2.57.1'], 'C:\\Program Files\\KeePass Password Safe 2', [['winget', 'DominikReichl.KeePass'], ['chocolatey', 'keepass']])],
  },
  {
    key: '1password', type: 'software', vendor: 'AgileBits', name: '1Password', cpe: 'a:1password:1password',
    installs: [
      on(W, 0.06, ['8.10.18', '8.10.36', '8.10.60', '8.11.4'], 'C:\\Program Files\\1Password\\app\\8', [['winget', 'AgileBits.1Password'], none]),
      on(MAC, 0.25, ['8.10.18', '8.10.36', '8.10.60', '8.11.4'], '/Applications/1Password.app', [['homebrew', '1password'], none]),
    ],
  },
  {
    key: 'teamviewer', type: 'software', vendor: 'TeamViewer', name: 'TeamViewer', cpe: 'a:teamviewer:teamviewer',
    installs: [
      on(W, 0.08, ['15.42.4', '15.51.5', '15.58.4', '15.63.4', '15.68.5'], 'C:\\Program Files\\TeamViewer', [['winget', 'TeamViewer.TeamViewer'], ['msi', 'TeamViewer Host']]),
      on(MAC, 0.05, ['15.51.5', '15.63.4', '15.68.5'], '/Applications/TeamViewer.app', [['homebrew', 'teamviewer'], none]),
    ],
  },
  {
    key: 'iterm2', type: 'software', vendor: 'George Nachman', name: 'iTerm2', cpe: 'a:iterm2:iterm2',
    installs: [on(MAC, 0.1, ['3.4.23', '3.5.0', '3.5.4', '3.5.14'], '/Applications/iTerm.app', [['homebrew', 'iterm2'], none])],
  },

  // Developer tools and runtimes.
  {
    key: 'git', type: 'software', vendor: 'Git', name: 'Git', cpe: 'a:git-scm:git',
    installs: [
      on([W, WS], 0.2, ['2.34.1.windows.1', '2.39.0.windows.2', '2.43.0.windows.1', '2.45.1.windows.1', '2.47.1.windows.1', '2.51.0.windows.1'],
        'C:\\Program Files\\Git', [['winget', 'Git.Git'], ['chocolatey', 'git']]),
      on(MAC, 0.35, ['2.39.3', '2.43.0', '2.45.1', '2.47.1', '2.50.1'], '{brew}/Cellar/git/{v}', [['homebrew', 'git']]),
      ...distros([LS], 0.3, {
        'ubuntu-2204': ['1:2.34.1-1ubuntu1.5=2.34.1', '1:2.34.1-1ubuntu1.10=2.39.1', '1:2.34.1-1ubuntu1.11=2.45.1'],
        'ubuntu-2404': ['1:2.43.0-1ubuntu7=2.43.0', '1:2.43.0-1ubuntu7.1=2.45.1', '1:2.43.0-1ubuntu7.3=2.45.1'],
        'debian-12': ['1:2.39.2-1.1=2.39.2', '1:2.39.5-0+deb12u1=2.45.1', '1:2.39.5-0+deb12u2=2.45.1'],
        'rhel-9': ['2.39.3-1.el9_2=2.39.3', '2.43.5-1.el9_4=2.45.1', '2.47.1-1.el9_5=2.47.1'],
      }, 'git', '/usr/bin/git'),
      ...distros([LW], 0.8, {
        'ubuntu-2204': ['1:2.34.1-1ubuntu1.5=2.34.1', '1:2.34.1-1ubuntu1.10=2.39.1', '1:2.34.1-1ubuntu1.11=2.45.1'],
        'ubuntu-2404': ['1:2.43.0-1ubuntu7=2.43.0', '1:2.43.0-1ubuntu7.1=2.45.1', '1:2.43.0-1ubuntu7.3=2.45.1'],
      }, 'git', '/usr/bin/git'),
    ],
  },
  {
    key: 'vscode', type: 'software', vendor: 'Microsoft', name: 'Visual Studio Code', cpe: 'a:microsoft:visual_studio_code',
    installs: [
      on(W, 0.15, vscodeVersions, 'C:\\Program Files\\Microsoft VS Code', [['winget', 'Microsoft.VisualStudioCode'], none]),
      on(MAC, 0.2, vscodeVersions, '/Applications/Visual Studio Code.app', [['homebrew', 'visual-studio-code'], none]),
      on(LW, 0.6, vscodeVersions, '/usr/share/code', [['apt', 'code'], ['snap', 'code']]),
    ],
  },
  {
    key: 'docker-desktop', type: 'software', vendor: 'Docker', name: 'Docker Desktop', cpe: 'a:docker:desktop',
    installs: [
      on(W, 0.08, ['4.24.2', '4.28.0', '4.33.1', '4.37.1', '4.43.2'], 'C:\\Program Files\\Docker\\Docker', [['winget', 'Docker.DockerDesktop'], none]),
      on(MAC, 0.15, ['4.24.2', '4.28.0', '4.33.1', '4.37.1', '4.43.2'], '/Applications/Docker.app', [['homebrew', 'docker'], none]),
    ],
  },
  {
    key: 'python-windows', type: 'software', vendor: 'Python Software Foundation', name: 'Python', cpe: 'a:python:python',
    installs: [on(W, 0.08, ['3.10.11', '3.11.9', '3.12.4', '3.12.10', '3.13.5'], 'C:\\Program Files\\Python{mm}', [['winget', 'Python.Python.3.{mm}'], none])],
  },
  {
    key: 'python', type: 'software', vendor: 'Python Software Foundation', name: 'Python', cpe: 'a:python:python',
    installs: distros(LINUX, 0.6, {
      'ubuntu-2204': ['3.10.12-1~22.04.3', '3.10.12-1~22.04.10'],
      'ubuntu-2404': ['3.12.3-0ubuntu2', '3.12.3-1ubuntu0.7'],
      'debian-12': ['3.11.2-1+b1'],
      'rhel-9': ['3.9.18-3.el9', '3.9.21-2.el9'],
    }, 'python3', '/usr/bin/python3'),
  },
  {
    key: 'nodejs', type: 'software', vendor: 'OpenJS Foundation', name: 'Node.js', cpe: 'a:nodejs:node.js',
    installs: [
      on(W, 0.1, nodeVersions, 'C:\\Program Files\\nodejs', [['winget', 'OpenJS.NodeJS.LTS'], ['msi', 'Node.js']]),
      on(MAC, 0.2, nodeVersions, '{brew}/Cellar/node/{v}', [['homebrew', 'node']]),
      on(LS, 0.3, nodeVersions, '/usr/bin/node', [['{pm}', 'nodejs']], { roles: ['app', 'ci', 'web'] }),
    ],
  },
  {
    key: 'oracle-jre', type: 'software', vendor: 'Oracle', name: 'Java SE Runtime Environment 8', cpe: 'a:oracle:jre',
    installs: [on([W, WS], 0.1, ['1.8.0_202', '1.8.0_311', '1.8.0_381', '1.8.0_441'], 'C:\\Program Files\\Java\\jre{v}', [['msi', 'Java 8'], none])],
  },
  {
    key: 'oracle-jdk', type: 'software', vendor: 'Oracle', name: 'Java SE Development Kit', cpe: 'a:oracle:jdk',
    installs: [
      on(W, 0.04, ['17.0.1', '17.0.2', '17.0.10', '21.0.2', '21.0.6'], 'C:\\Program Files\\Java\\jdk-{v}', [['msi', 'Java(TM) SE Development Kit {major}'], none]),
      on(WS, 0.1, ['17.0.1', '17.0.2', '17.0.10', '21.0.2', '21.0.6'], 'C:\\Program Files\\Java\\jdk-{v}', [['msi', 'Java(TM) SE Development Kit {major}'], none], { roles: ['app', 'web', 'mft'] }),
    ],
  },
  {
    key: 'temurin', type: 'software', vendor: 'Eclipse Adoptium', name: 'Temurin JDK', cpe: 'a:eclipse:temurin',
    installs: [
      on([W, WS], 0.06, temurinVersions, 'C:\\Program Files\\Eclipse Adoptium\\jdk-{v}-hotspot', [['winget', 'EclipseAdoptium.Temurin.{major}.JDK'], ['msi', 'Eclipse Temurin JDK {major}']]),
      on(MAC, 0.1, temurinVersions, '/Library/Java/JavaVirtualMachines/temurin-{major}.jdk', [['homebrew', 'temurin@{major}'], none]),
      on(LS, 0.6, temurinVersions, '/usr/lib/jvm/temurin-{major}-jdk', [['{pm}', 'temurin-{major}-jdk']], { roles: ['app', 'ci', 'mq', 'wiki'] }),
    ],
  },

  // Server software.
  {
    key: 'exchange', type: 'software', vendor: 'Microsoft', name: 'Exchange Server', cpe: 'a:microsoft:exchange_server',
    installs: [
      on(WS, 1, ['15.1.2176.9@2021-02', '15.1.2507.35@2023-11', '15.2.1118.40@2023-11', '15.2.1544.14@2024-11', '15.2.1748.36@2025-08'],
        'C:\\Program Files\\Microsoft\\Exchange Server\\V15', [none], { roles: ['exch'] }),
    ],
  },
  {
    key: 'sharepoint', type: 'software', vendor: 'Microsoft', name: 'SharePoint Server', cpe: 'a:microsoft:sharepoint_server',
    installs: [
      on(WS, 1, ['16.0.10337.12109@2018-09', '16.0.10396.20000@2023-04', '16.0.10408.20002@2024-03', '16.0.10417.20018@2025-05', '16.0.10417.20037@2025-08'],
        'C:\\Program Files\\Common Files\\microsoft shared\\Web Server Extensions\\16', [none], { roles: ['sp'] }),
    ],
  },
  {
    key: 'moveit', type: 'software', vendor: 'Progress Software', name: 'MOVEit Transfer', cpe: 'a:progress:moveit_transfer',
    installs: [on(WS, 0.7, ['14.1.4', '15.0.0', '15.0.1', '15.1.4', '16.0.6'], 'C:\\Program Files\\MOVEit', [none], { roles: ['mft'] })],
  },
  {
    key: 'goanywhere', type: 'software', vendor: 'Fortra', name: 'GoAnywhere MFT', cpe: 'a:fortra:goanywhere_managed_file_transfer',
    installs: [
      on(WS, 0.4, ['6.8.6', '7.1.1', '7.1.2', '7.4.1', '7.8.1'], 'C:\\Program Files\\Linoma Software\\GoAnywhere', [none], { roles: ['mft'] }),
      on(LS, 0.03, ['6.8.6', '7.1.1', '7.1.2', '7.4.1', '7.8.1'], '/opt/HelpSystems/GoAnywhere', [none], { roles: ['app'] }),
    ],
  },
  {
    key: 'papercut', type: 'software', vendor: 'PaperCut Software', name: 'PaperCut NG', cpe: 'a:papercut:papercut_ng',
    installs: [on(WS, 0.8, ['20.1.6', '21.2.10', '22.0.8', '22.0.9', '22.1.4', '23.0.9'], 'C:\\Program Files\\PaperCut NG', [none], { roles: ['print'] })],
  },
  {
    key: 'screenconnect', type: 'software', vendor: 'ConnectWise', name: 'ScreenConnect', cpe: 'a:connectwise:screenconnect',
    installs: [on(WS, 0.08, ['22.9.10926', '23.9.7.8804', '23.9.8.8811', '24.2.3.8856', '25.2.4.9229'], 'C:\\Program Files (x86)\\ScreenConnect', [none], { roles: ['app'] })],
  },
  {
    key: 'httpd', type: 'service', vendor: 'Apache Software Foundation', name: 'Apache HTTP Server', cpe: 'a:apache:http_server',
    installs: [
      on(WS, 0.15, ['2.4.49', '2.4.51', '2.4.54', '2.4.58', '2.4.62', '2.4.63'], 'C:\\Apache24', [none], { roles: ['web', 'app'] }),
      ...distros([LS], 0.6, {
        'ubuntu-2204': ['2.4.52-1ubuntu4.3=2.4.52', '2.4.52-1ubuntu4.7=2.4.58', '2.4.52-1ubuntu4.12=2.4.62'],
        'ubuntu-2404': ['2.4.58-1ubuntu8.4', '2.4.58-1ubuntu8.7'],
        'debian-12': ['2.4.57-2', '2.4.62-1~deb12u2', '2.4.65-1~deb12u1'],
        'rhel-9': ['2.4.53-7.el9=2.4.53', '2.4.57-5.el9', '2.4.62-4.el9'],
      }, { apt: 'apache2', dnf: 'httpd' }, { apt: '/usr/sbin/apache2', dnf: '/usr/sbin/httpd' }, ['web', 'app', 'mon']),
    ],
  },
  {
    key: 'nginx', type: 'service', vendor: 'F5', name: 'nginx', cpe: 'a:f5:nginx',
    installs: distros([LS], 0.6, {
      'ubuntu-2204': ['1.18.0-6ubuntu14.4', '1.18.0-6ubuntu14.6'],
      'ubuntu-2404': ['1.24.0-2ubuntu7', '1.24.0-2ubuntu7.4'],
      'debian-12': ['1.22.1-9', '1.22.1-9+deb12u2'],
      'rhel-9': ['1.20.1-14.el9_2.1', '1.20.1-22.el9_6.3'],
    }, 'nginx', '/usr/sbin/nginx', ['web', 'k8s', 'app', 'mon']),
  },
  {
    key: 'php', type: 'software', vendor: 'PHP Group', name: 'PHP', cpe: 'a:php:php',
    installs: [
      on(WS, 0.3, ['8.1.27', '8.2.12', '8.2.20', '8.3.7', '8.3.14', '8.4.10'], 'C:\\php', [none], { roles: ['web'] }),
      ...distros([LS], 0.4, {
        'ubuntu-2204': ['8.1.2-1ubuntu2.18'],
        'ubuntu-2404': ['8.3.6-0ubuntu0.24.04.3'],
        'debian-12': ['8.2.26-1~deb12u1'],
        'rhel-9': ['8.0.30-1.el9_2'],
      }, { apt: 'php-fpm', dnf: 'php-fpm' }, '/usr/sbin/php-fpm', ['web']),
    ],
  },
  {
    key: 'tomcat', type: 'service', vendor: 'Apache Software Foundation', name: 'Tomcat', cpe: 'a:apache:tomcat',
    installs: [
      on(WS, 0.25, tomcatVersions, 'C:\\Program Files\\Apache Software Foundation\\Tomcat {m.m}', [none], { roles: ['app', 'web'] }),
      on(LS, 0.5, tomcatVersions, '/opt/tomcat', [none], { roles: ['app'] }),
    ],
  },
  {
    key: 'log4j', type: 'software', vendor: 'Apache Software Foundation', name: 'Log4j', cpe: 'a:apache:log4j',
    installs: [
      on(LS, 0.4, ['2.8.2', '2.11.1', '2.14.1', '2.15.0', '2.16.0', '2.17.0', '2.17.1', '2.20.0', '2.23.1', '2.24.3'],
        '/opt/{app}/lib/log4j-core-{v}.jar', [['maven', 'org.apache.logging.log4j:log4j-core']], { roles: ['app', 'ci', 'wiki', 'mq'] }),
      on(WS, 0.3, ['2.11.1', '2.14.1', '2.16.0', '2.17.1', '2.20.0', '2.24.3'],
        'D:\\Apps\\{app}\\lib\\log4j-core-{v}.jar', [['maven', 'org.apache.logging.log4j:log4j-core']], { roles: ['app'] }),
    ],
  },
  {
    key: 'spring-framework', type: 'software', vendor: 'VMware', name: 'Spring Framework', cpe: 'a:vmware:spring_framework',
    installs: [
      on(LS, 0.3, ['5.2.9.RELEASE', '5.3.17', '5.3.18', '5.3.31', '6.0.13', '6.1.14', '6.2.8'],
        '/opt/{app}/lib/spring-webmvc-{v}.jar', [['maven', 'org.springframework:spring-webmvc']], { roles: ['app'] }),
      on(WS, 0.1, ['5.3.17', '5.3.31', '6.1.14'], 'D:\\Apps\\{app}\\lib\\spring-webmvc-{v}.jar', [['maven', 'org.springframework:spring-webmvc']], { roles: ['app'] }),
    ],
  },
  {
    key: 'struts', type: 'software', vendor: 'Apache Software Foundation', name: 'Struts', cpe: 'a:apache:struts',
    installs: [on(LS, 0.04, ['2.3.31', '2.5.10', '2.5.33', '6.3.0.2', '6.7.4'], '/opt/{app}/WEB-INF/lib/struts2-core-{v}.jar', [['maven', 'org.apache.struts:struts2-core']], { roles: ['app'] })],
  },
  {
    key: 'commons-text', type: 'software', vendor: 'Apache Software Foundation', name: 'Commons Text', cpe: 'a:apache:commons_text',
    installs: [on(LS, 0.2, ['1.8', '1.9', '1.10.0', '1.11.0', '1.13.1'], '/opt/{app}/lib/commons-text-{v}.jar', [['maven', 'org.apache.commons:commons-text']], { roles: ['app', 'ci'] })],
  },
  {
    key: 'activemq', type: 'service', vendor: 'Apache Software Foundation', name: 'ActiveMQ', cpe: 'a:apache:activemq',
    installs: [on(LS, 1, ['5.15.13', '5.16.6', '5.17.5', '5.17.6', '5.18.3', '6.1.4'], '/opt/activemq', [none], { roles: ['mq'] })],
  },
  {
    key: 'jenkins', type: 'service', vendor: 'Jenkins', name: 'Jenkins', cpe: 'a:jenkins:jenkins',
    installs: [on(LS, 1, ['2.401.3', '2.426.2', '2.426.3', '2.452.4', '2.479.3', '2.516.2'], '/usr/share/java/jenkins.war', [['{pm}', 'jenkins']], { roles: ['ci'] })],
  },
  {
    key: 'confluence', type: 'software', vendor: 'Atlassian', name: 'Confluence Data Center', cpe: 'a:atlassian:confluence_data_center',
    installs: [on(LS, 1, ['7.4.10', '7.13.6', '7.13.7', '7.19.16', '8.5.4', '8.5.16', '9.2.3'], '/opt/atlassian/confluence', [none], { roles: ['wiki'] })],
  },
  {
    key: 'exim', type: 'service', vendor: 'Exim', name: 'Exim', cpe: 'a:exim:exim',
    installs: distros([LS], 1, {
      'debian-12': ['4.96-15+deb12u1=4.96', '4.96-15+deb12u2=4.96.1', '4.96-15+deb12u7=4.96.1'],
      'ubuntu-2204': ['4.95-4ubuntu2.4=4.95', '4.95-4ubuntu2.5=4.96.1'],
    }, 'exim4-daemon-light', '/usr/sbin/exim4', ['mail']),
  },
  {
    key: 'postfix', type: 'service', vendor: 'Postfix', name: 'Postfix', cpe: 'a:postfix:postfix',
    installs: distros([LS], 1, {
      'ubuntu-2404': ['3.8.6-1build2'],
      'rhel-9': ['3.5.9-24.el9', '3.5.25-1.el9'],
    }, 'postfix', '/usr/sbin/postfix', ['mail']),
  },
  {
    key: 'postgresql', type: 'service', vendor: 'PostgreSQL Global Development Group', name: 'PostgreSQL', cpe: 'a:postgresql:postgresql',
    installs: [
      ...distros([LS], 0.7, { 'ubuntu-2204': ['14.11-0ubuntu0.22.04.1', '14.18-0ubuntu0.22.04.1'] }, 'postgresql-14', '/usr/lib/postgresql/14/bin/postgres', ['db']),
      ...distros([LS], 0.7, { 'ubuntu-2404': ['16.4-0ubuntu0.24.04.2', '16.9-0ubuntu0.24.04.1'] }, 'postgresql-16', '/usr/lib/postgresql/16/bin/postgres', ['db']),
      ...distros([LS], 0.7, { 'debian-12': ['15.8-0+deb12u1', '15.13-0+deb12u1'] }, 'postgresql-15', '/usr/lib/postgresql/15/bin/postgres', ['db']),
      ...distros([LS], 0.7, { 'rhel-9': ['13.20-1.el9_5', '16.8-1.el9_6'] }, 'postgresql-server', '/usr/bin/postgres', ['db']),
    ],
  },
  {
    key: 'mariadb', type: 'service', vendor: 'MariaDB Foundation', name: 'MariaDB Server', cpe: 'a:mariadb:mariadb',
    installs: distros([LS], 0.3, {
      'ubuntu-2204': ['1:10.6.18-0ubuntu0.22.04.1'],
      'ubuntu-2404': ['1:10.11.8-0ubuntu0.24.04.1'],
      'debian-12': ['1:10.11.6-0+deb12u1', '1:10.11.11-0+deb12u1'],
      'rhel-9': ['3:10.5.22-1.el9_2'],
    }, 'mariadb-server', '/usr/sbin/mariadbd', ['db']),
  },
  {
    key: 'docker-engine', type: 'service', vendor: 'Docker', name: 'Docker Engine', cpe: 'a:docker:engine',
    installs: [
      on(LS, 0.5, dockerEngineVersions, '/usr/bin/dockerd', [['{pm}', 'docker-ce']], { roles: ['k8s', 'app', 'ci'] }),
      on(LW, 0.4, dockerEngineVersions, '/usr/bin/dockerd', [['apt', 'docker-ce']]),
    ],
  },
  {
    key: 'kubelet', type: 'service', vendor: 'Kubernetes', name: 'kubelet', cpe: 'a:kubernetes:kubernetes',
    installs: [on(LS, 1, ['1.27.8', '1.28.9', '1.29.6', '1.30.4', '1.31.2', '1.33.1'], '/usr/bin/kubelet', [['{pm}', 'kubelet']], { roles: ['k8s'] })],
  },

  // Base system packages.
  {
    key: 'openssh', type: 'service', vendor: 'OpenBSD', name: 'OpenSSH', cpe: 'a:openbsd:openssh',
    installs: [
      ...distros([LS], 0.97, {
        'ubuntu-2204': ['1:8.9p1-3ubuntu0.4=8.9p1', '1:8.9p1-3ubuntu0.6=9.6', '1:8.9p1-3ubuntu0.10=9.8p1', '1:8.9p1-3ubuntu0.13=9.8p1'],
        'ubuntu-2404': ['1:9.6p1-3ubuntu13=9.6p1', '1:9.6p1-3ubuntu13.5=9.8p1', '1:9.6p1-3ubuntu13.12=9.8p1'],
        'debian-12': ['1:9.2p1-2+deb12u1=9.2p1', '1:9.2p1-2+deb12u2=9.6', '1:9.2p1-2+deb12u3=9.8p1', '1:9.2p1-2+deb12u6=9.8p1'],
        'rhel-9': ['8.7p1-34.el9=8.7p1', '8.7p1-38.el9=9.6', '8.7p1-38.el9_4.1=9.8p1', '8.7p1-45.el9=9.8p1'],
      }, 'openssh-server', '/usr/sbin/sshd'),
      ...distros([LW], 0.3, {
        'ubuntu-2204': ['1:8.9p1-3ubuntu0.4=8.9p1', '1:8.9p1-3ubuntu0.10=9.8p1', '1:8.9p1-3ubuntu0.13=9.8p1'],
        'ubuntu-2404': ['1:9.6p1-3ubuntu13=9.6p1', '1:9.6p1-3ubuntu13.5=9.8p1', '1:9.6p1-3ubuntu13.12=9.8p1'],
      }, 'openssh-server', '/usr/sbin/sshd'),
      on('freebsd', 0.9, ['9.5p1', '9.6p1', '9.7p1', '9.8p1', '9.9p2'], '/usr/sbin/sshd'),
    ],
  },
  {
    key: 'openssl', type: 'software', vendor: 'OpenSSL Project', name: 'OpenSSL', cpe: 'a:openssl:openssl',
    installs: [
      ...distros(LINUX, 0.9, {
        'ubuntu-2204': ['3.0.2-0ubuntu1.6=3.0.2', '3.0.2-0ubuntu1.10=3.0.8', '3.0.2-0ubuntu1.15=3.0.13', '3.0.2-0ubuntu1.19=3.0.16'],
        'ubuntu-2404': ['3.0.13-0ubuntu3.1=3.0.13', '3.0.13-0ubuntu3.5=3.0.15'],
        'debian-12': ['3.0.11-1~deb12u2=3.0.11', '3.0.15-1~deb12u1=3.0.15', '3.0.17-1~deb12u2=3.0.17'],
        'rhel-9': ['3.0.7-6.el9_2=3.0.7', '3.0.7-27.el9=3.0.8', '3.2.2-6.el9_5=3.2.2'],
      }, 'openssl', '/usr/bin/openssl'),
      on(MAC, 0.3, ['3.0.7', '3.1.4', '3.3.2', '3.4.1', '3.5.2'], '{brew}/Cellar/openssl@3/{v}', [['homebrew', 'openssl@3']]),
      on('freebsd', 0.3, ['3.0.13', '3.0.15', '3.0.16'], '/usr/bin/openssl'),
    ],
  },
  {
    key: 'glibc', type: 'software', vendor: 'GNU Project', name: 'GNU C Library (glibc)', cpe: 'a:gnu:glibc',
    installs: distros(LINUX, 0.9, {
      'ubuntu-2204': ['2.35-0ubuntu3.1=2.35', '2.35-0ubuntu3.4=2.39', '2.35-0ubuntu3.10=2.39'],
      'ubuntu-2404': ['2.39-0ubuntu8.3', '2.39-0ubuntu8.4'],
      'debian-12': ['2.36-9+deb12u1=2.36', '2.36-9+deb12u3=2.39', '2.36-9+deb12u10=2.39'],
      'rhel-9': ['2.34-60.el9=2.34', '2.34-83.el9_3.7=2.39', '2.34-125.el9_5.1=2.39'],
    }, { apt: 'libc6', dnf: 'glibc' }, { apt: '/usr/lib/{multiarch}/libc.so.6', dnf: '/usr/lib64/libc.so.6' }),
  },
  {
    key: 'sudo', type: 'software', vendor: 'Sudo Project', name: 'Sudo', cpe: 'a:sudo_project:sudo',
    installs: [
      ...distros(LINUX, 0.8, {
        'ubuntu-2204': ['1.9.9-1ubuntu2.4'],
        'ubuntu-2404': ['1.9.15p5-3ubuntu5', '1.9.15p5-3ubuntu5.24.04.1'],
        'debian-12': ['1.9.13p3-1+deb12u1'],
        'rhel-9': ['1.9.5p2-9.el9', '1.9.5p2-10.el9_3'],
      }, 'sudo', '/usr/bin/sudo'),
      on('freebsd', 0.4, ['1.9.15p5', '1.9.16p2'], '/usr/local/bin/sudo', [['pkg', 'sudo']]),
    ],
  },
  {
    key: 'curl', type: 'software', vendor: 'curl', name: 'curl', cpe: 'a:haxx:curl',
    installs: [
      ...distros(LINUX, 0.8, {
        'ubuntu-2204': ['7.81.0-1ubuntu1.10=7.81.0', '7.81.0-1ubuntu1.14=8.4.0', '7.81.0-1ubuntu1.20=8.4.0'],
        'ubuntu-2404': ['8.5.0-2ubuntu10.1', '8.5.0-2ubuntu10.6'],
        'debian-12': ['7.88.1-10+deb12u4=7.88.1', '7.88.1-10+deb12u5=8.4.0', '7.88.1-10+deb12u12=8.4.0'],
        'rhel-9': ['7.76.1-23.el9=7.76.1', '7.76.1-26.el9_3.2=8.4.0', '7.76.1-31.el9=8.4.0'],
      }, 'curl', '/usr/bin/curl'),
      on(MAC, 0.2, ['8.1.2', '8.4.0', '8.7.1', '8.11.1', '8.14.1'], '{brew}/Cellar/curl/{v}', [['homebrew', 'curl']]),
      on('freebsd', 0.5, ['8.3.0', '8.6.0', '8.11.1'], '/usr/local/bin/curl', [['pkg', 'curl']]),
    ],
  },
  {
    key: 'xz', type: 'software', vendor: 'Tukaani Project', name: 'XZ Utils', cpe: 'a:tukaani:xz',
    installs: [
      ...distros(LINUX, 0.5, {
        'ubuntu-2204': ['5.2.5-2ubuntu1'],
        'ubuntu-2404': ['5.6.1+really5.4.5-1=5.4.5', '5.6.1+really5.4.5-1ubuntu0.2=5.4.5'],
        'debian-12': ['5.4.1-0.2', '5.4.1-1'],
        'rhel-9': ['5.2.5-8.el9_0'],
      }, { apt: 'xz-utils', dnf: 'xz' }, '/usr/bin/xz'),
      on(MAC, 0.25, ['5.4.6', '5.6.1', '5.6.2', '5.6.3', '5.8.1'], '{brew}/Cellar/xz/{v}', [['homebrew', 'xz']]),
    ],
  },
  {
    key: 'libwebp', type: 'software', vendor: 'WebM Project', name: 'libwebp', cpe: 'a:webmproject:libwebp',
    installs: distros(LINUX, 0.3, {
      'ubuntu-2204': ['1.2.2-2ubuntu0.22.04.1=1.2.2', '1.2.2-2ubuntu0.22.04.2=1.3.2'],
      'ubuntu-2404': ['1.3.2-0.4build3'],
      'debian-12': ['1.2.4-0.2=1.2.4', '1.2.4-0.2+deb12u1=1.3.2'],
      'rhel-9': ['1.2.0-6.el9_2=1.2.0', '1.2.0-7.el9_2=1.3.2', '1.2.0-8.el9_3=1.3.2'],
    }, { apt: 'libwebp7', dnf: 'libwebp' }, { apt: '/usr/lib/{multiarch}/libwebp.so.7', dnf: '/usr/lib64/libwebp.so.7' }),
  },
  {
    key: 'polkit', type: 'software', vendor: 'freedesktop.org', name: 'polkit', cpe: 'a:polkit_project:polkit',
    installs: [
      // pkexec has its own package since polkit 122; Ubuntu 22.04 still ships it in policykit-1.
      ...distros(LINUX, 0.3, { 'ubuntu-2204': ['0.105-33'] }, 'policykit-1', '/usr/bin/pkexec'),
      ...distros(LINUX, 0.3, {
        'ubuntu-2404': ['124-2ubuntu1'],
        'debian-12': ['122-3'],
        'rhel-9': ['0.117-11.el9'],
      }, { apt: 'pkexec', dnf: 'polkit' }, '/usr/bin/pkexec'),
    ],
  },

  // Appliance services: their version is the appliance firmware.
  { key: 'fortios-sslvpn', type: 'service', vendor: 'Fortinet', name: 'FortiOS SSL-VPN', cpe: 'o:fortinet:fortios', installs: [on('appliance', 0.7, 'os', null, [none], { os: ['fortios'] })] },
  { key: 'panos-globalprotect', type: 'service', vendor: 'Palo Alto Networks', name: 'GlobalProtect gateway', cpe: 'o:paloaltonetworks:pan-os', installs: [on('appliance', 0.7, 'os', null, [none], { os: ['panos'] })] },
  { key: 'netscaler-gateway', type: 'service', vendor: 'Citrix', name: 'NetScaler Gateway', cpe: 'a:citrix:netscaler_gateway', installs: [on('appliance', 0.7, 'os', null, [none], { os: ['netscaler'] })] },

  // Configuration findings of a baseline: no version, no CVE.
  config('bitlocker-off', 'Microsoft', 'BitLocker Drive Encryption', 'o:microsoft:windows', [on(W, 0.12, [], null)]),
  config('defender-firewall-off', 'Microsoft', 'Windows Defender Firewall', 'o:microsoft:windows', [on(W, 0.05, [], null), on(WS, 0.08, [], null)]),
  config('smbv1-enabled', 'Microsoft', 'SMB 1.0/CIFS File Sharing Support', 'o:microsoft:windows', [on(W, 0.03, [], null), on(WS, 0.1, [], null)]),
  config('llmnr-enabled', 'Microsoft', 'Link-Local Multicast Name Resolution (LLMNR)', 'o:microsoft:windows', [on(W, 0.1, [], null), on(WS, 0.1, [], null)]),
  config('tls10-enabled', 'Microsoft', 'TLS 1.0 (Schannel)', 'o:microsoft:windows', [on(WS, 0.15, [], null)]),
  config('laps-missing', 'Microsoft', 'Local Administrator Password Solution (LAPS)', 'o:microsoft:windows', [on(W, 0.06, [], null), on(WS, 0.06, [], null)]),
  config('filevault-off', 'Apple', 'FileVault', 'o:apple:macos', [on(MAC, 0.06, [], null)]),
  config('gatekeeper-off', 'Apple', 'Gatekeeper', 'o:apple:macos', [on(MAC, 0.03, [], null)]),
  config('macos-firewall-off', 'Apple', 'Application Firewall', 'o:apple:macos', [on(MAC, 0.12, [], null)]),
  config('macos-auto-update-off', 'Apple', 'Software Update automatic installation', 'o:apple:macos', [on(MAC, 0.1, [], null)]),
  config('ssh-root-login', 'OpenBSD', 'OpenSSH server configuration (PermitRootLogin)', 'a:openbsd:openssh', [on([LS, 'freebsd'], 0.12, [], null)]),
  config('selinux-permissive', 'Red Hat', 'SELinux', 'o:redhat:enterprise_linux', [on(LS, 0.2, [], null, [none], { os: ['rhel-9'] })]),
  config('unattended-upgrades-off', 'Debian', 'unattended-upgrades', 'a:debian:unattended-upgrades', [on(LINUX, 0.12, [], null, [none], { os: ['ubuntu-2204', 'ubuntu-2404', 'debian-12'] })]),
  config('auditd-off', 'Red Hat', 'auditd', 'a:redhat:audit', [on(LS, 0.05, [], null)]),
  config('chromeos-developer-mode', 'Google', 'ChromeOS developer mode', 'o:google:chrome_os', [on('chromeos', 0.15, [], null)]),
  config('fortigate-admin-wan', 'Fortinet', 'FortiGate administrative access on WAN interface', 'o:fortinet:fortios', [on('appliance', 0.4, [], null, [none], { os: ['fortios'] })]),
  config('panos-mgmt-exposed', 'Palo Alto Networks', 'PAN-OS management interface exposure', 'o:paloaltonetworks:pan-os', [on('appliance', 0.3, [], null, [none], { os: ['panos'] })]),
  config('netscaler-nsip-exposed', 'Citrix', 'NetScaler management access (NSIP)', 'a:citrix:netscaler_application_delivery_controller', [on('appliance', 0.3, [], null, [none], { os: ['netscaler'] })]),
  config('ivanti-integrity-check', 'Ivanti', 'Connect Secure external Integrity Checker Tool', 'a:ivanti:connect_secure', [on('appliance', 0.3, [], null, [none], { os: ['ivanti-ics'] })]),
];

function config(key: string, vendor: string, name: string, cpe: string, installs: readonly InstallDef[]): ProductDef {
  return { key, type: 'configuration', vendor, name, cpe, installs };
}
