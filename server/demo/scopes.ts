/**
 * Generated remediation scopes: standing policies as a security team writes them. The first
 * templates together use every filter field of the specification, so even the smallest dataset
 * exercises all of them; bigger datasets add per-region and per-team variants.
 */
import type { Scope } from '../../contracts/scope.js';
import { DAY_MS, iso, referenceMs } from './clock.js';
import type { EndpointContext } from './endpoints.js';
import { productCatalog } from './product-catalog.js';
import type { Random } from './random.js';

type SubjectFilter = Scope['subject_filter'];
type EndpointFilter = Scope['endpoint_filter'];
type FindingFilter = Scope['finding_filter'];

interface ScopeTemplate {
  readonly name: string;
  readonly description: string;
  readonly status?: Scope['status'];
  readonly subject: SubjectFilter;
  readonly endpoint: EndpointFilter;
  readonly finding: FindingFilter;
  /** The endpoints it names one by one, when it does. */
  readonly endpointIds?: (endpoint: EndpointContext) => boolean;
}

/** The CPE 2.3 pattern of every version of a catalogue product. */
function cpe(productKey: string): string {
  const product = productCatalog.find((p) => p.key === productKey);
  if (!product) throw new Error(`unknown product ${productKey}`);
  return `cpe:2.3:${product.cpe}:*:*:*:*:*:*:*:*`;
}

const isLegacyWindows = (e: EndpointContext) => e.os.id === 'win7' || e.os.id === 'ws2008r2' || e.os.id === 'ws2016';

const templates: readonly ScopeTemplate[] = [
  {
    name: 'Critical browser patches',
    description: 'Keep web browsers current on every workstation: high and critical browser vulnerabilities are patched within 7 days.',
    subject: { subject_types: ['software'], vendors: ['Google', 'Mozilla', 'Microsoft', 'Apple'], products: ['Chrome', 'Firefox', 'Edge', 'Safari'] },
    endpoint: { os_families: ['windows', 'macos', 'linux'] },
    finding: { finding_types: ['vulnerability'], min_severity: 'high' },
  },
  {
    name: 'KEV-listed vulnerabilities on servers',
    description: 'Vulnerabilities in the CISA Known Exploited Vulnerabilities catalog on managed servers, within the federal due dates.',
    subject: { subject_types: ['software', 'service'] },
    endpoint: { tags: ['server'], has_agent: true },
    finding: { finding_types: ['vulnerability'], kev_only: true },
  },
  {
    name: 'macOS fleet hygiene',
    description: 'macOS updates, third-party applications and security settings (FileVault, Gatekeeper, firewall) on every Mac.',
    subject: { subject_types: ['software', 'configuration'] },
    endpoint: { os_families: ['macos'] },
    finding: { finding_types: ['vulnerability', 'compliance'], min_severity: 'medium' },
  },
  {
    name: 'Java library exposure (Log4j, Spring, Commons Text, Struts)',
    description: 'Critical flaws in Java libraries bundled with in-house and vendor applications, found by software composition scans.',
    subject: { subject_types: ['software'], cpe_patterns: [cpe('log4j'), cpe('spring-framework'), cpe('commons-text'), cpe('struts')] },
    endpoint: { os_families: ['linux', 'windows'] },
    finding: { finding_types: ['vulnerability'], min_cvss_score: 9.0 },
  },
  {
    name: 'Finance workstations',
    description: 'Workstations of the finance team, in scope of the SOX controls: high and critical issues are fixed before each quarter close.',
    subject: { subject_types: ['software'] },
    endpoint: { tags: ['finance', 'sox'] },
    finding: { min_severity: 'high' },
    endpointIds: (e) => e.role === 'FIN' && (e.profile === 'windows-workstation' || e.profile === 'macos'),
  },
  {
    name: 'Archive utilities (7-Zip, WinRAR)',
    description: 'Archive tools are a common phishing entry point: keep 7-Zip and WinRAR at versions without known code-execution flaws.',
    subject: {
      subject_types: ['software'], vendors: ['Igor Pavlov', 'RARLAB'], products: ['7-Zip', 'WinRAR'], cpe_patterns: [cpe('7zip'), cpe('winrar')],
    },
    endpoint: { os_families: ['windows'] },
    finding: { finding_types: ['vulnerability'], min_cvss_score: 7.0 },
  },
  {
    name: 'Devices without an agent',
    description: 'Endpoints seen only by network scans. Remediation waits until the agent is deployed; critical findings are tracked meanwhile.',
    status: 'paused',
    subject: {},
    endpoint: { has_agent: false },
    finding: { min_severity: 'critical' },
  },
  {
    name: 'Perimeter appliances',
    description: 'Firewalls, VPN gateways and application delivery controllers exposed to the internet: known-exploited flaws are fixed immediately.',
    subject: { subject_types: ['service', 'configuration'], vendors: ['Fortinet', 'Palo Alto Networks', 'Citrix', 'Ivanti'] },
    endpoint: { tags: ['perimeter', 'internet-facing'] },
    finding: { kev_only: true },
    endpointIds: (e) => e.profile === 'appliance',
  },
  {
    name: 'OpenSSH and OpenSSL on Linux',
    description: 'Remote access and TLS libraries of Linux servers, including the distribution packages with backported fixes.',
    subject: { subject_types: ['software', 'service'], products: ['OpenSSH', 'OpenSSL'], cpe_patterns: [cpe('openssh'), cpe('openssl')] },
    endpoint: { os_families: ['linux'] },
    finding: { finding_types: ['vulnerability'], min_severity: 'medium' },
  },
  {
    name: 'Java runtime standardization',
    description: 'Replace Oracle Java with Eclipse Temurin where no Oracle subscription covers the installation.',
    status: 'paused',
    subject: { subject_types: ['software'], vendors: ['Oracle'], products: ['Java SE Runtime Environment 8', 'Java SE Development Kit'] },
    endpoint: { os_families: ['windows'] },
    finding: { finding_types: ['licensing', 'standardization'] },
  },
  {
    name: 'Log4Shell emergency response (December 2021)',
    description: 'The emergency campaign against Log4Shell and its follow-up CVEs, kept for the audit trail.',
    status: 'archived',
    subject: { cpe_patterns: [cpe('log4j')] },
    endpoint: {},
    finding: { kev_only: true, min_cvss_score: 9.0 },
  },
  {
    name: 'Disk encryption and firewall baseline',
    description: 'BitLocker or FileVault on, and the host firewall enabled, on every laptop and desktop.',
    subject: {
      subject_types: ['configuration'],
      products: ['BitLocker Drive Encryption', 'FileVault', 'Windows Defender Firewall', 'Application Firewall'],
    },
    endpoint: { os_families: ['windows', 'macos'], tags: ['workstation'] },
    finding: { finding_types: ['compliance'] },
  },
  {
    name: 'End-of-life software retirement',
    description: 'Software past its vendor\'s end of support, on the legacy servers still in service.',
    subject: { products: ['Java SE Runtime Environment 8', 'Office Professional Plus 2016', 'Windows Server 2008 R2 Standard', 'Windows 7 Professional'] },
    endpoint: { tags: ['legacy'] },
    finding: { finding_types: ['deprecation'] },
    endpointIds: isLegacyWindows,
  },
  {
    name: 'Microsoft Office and Outlook',
    description: 'Office applications on Windows, where malicious documents and messages land first.',
    subject: {
      subject_types: ['software'], vendors: ['Microsoft'], products: ['Microsoft 365 Apps for enterprise', 'Office Professional Plus 2016'],
      cpe_patterns: [cpe('office-m365'), cpe('office-2016')],
    },
    endpoint: { os_families: ['windows'] },
    finding: { finding_types: ['vulnerability'], min_severity: 'high' },
  },
  {
    name: 'Windows Server monthly patching',
    description: 'Cumulative updates and Microsoft server software on Windows servers, installed in the maintenance window after Patch Tuesday.',
    subject: { subject_types: ['service', 'software'], vendors: ['Microsoft'] },
    endpoint: { os_families: ['windows'], tags: ['server'] },
    finding: { finding_types: ['vulnerability'], min_cvss_score: 7.0 },
  },
  {
    name: 'Developer tools',
    description: 'Git, editors, container tools and language runtimes on engineering machines.',
    subject: { subject_types: ['software'], products: ['Git', 'Visual Studio Code', 'Docker Desktop', 'Node.js', 'Python'] },
    endpoint: { tags: ['engineering'] },
    finding: { finding_types: ['vulnerability'], min_severity: 'medium' },
  },
  {
    name: 'Remote access tools',
    description: 'Remote support and administration tools, frequently abused for initial access.',
    subject: { vendors: ['ConnectWise', 'TeamViewer', 'Simon Tatham'], products: ['ScreenConnect', 'TeamViewer', 'PuTTY'] },
    endpoint: {},
    finding: { min_severity: 'high' },
  },
  {
    name: 'Legacy Windows servers',
    description: 'Servers on Windows releases near or past end of support, until their migration.',
    subject: {},
    endpoint: { os_families: ['windows'], tags: ['legacy'] },
    finding: { min_severity: 'high' },
    endpointIds: isLegacyWindows,
  },
  {
    name: 'Web and application servers',
    description: 'HTTP servers and servlet containers reachable from the DMZ.',
    subject: { subject_types: ['service'], products: ['Apache HTTP Server', 'nginx', 'Tomcat', 'Internet Information Services'] },
    endpoint: { tags: ['dmz'] },
    finding: { finding_types: ['vulnerability'], min_cvss_score: 7.5 },
  },
  {
    name: 'PDF readers',
    description: 'Acrobat Reader on every desktop, updated with each Adobe security bulletin.',
    subject: { vendors: ['Adobe'], products: ['Acrobat Reader'], cpe_patterns: [cpe('acrobat-reader')] },
    endpoint: { os_families: ['windows', 'macos'] },
    finding: { finding_types: ['vulnerability'], min_severity: 'medium' },
  },
  {
    name: 'Collaboration and file transfer servers',
    description: 'Internet-facing collaboration, CI and managed file transfer servers, prime ransomware targets.',
    subject: {
      products: ['Confluence Data Center', 'Exchange Server', 'SharePoint Server', 'MOVEit Transfer', 'GoAnywhere MFT', 'Jenkins'],
    },
    endpoint: { tags: ['server'] },
    finding: { kev_only: true },
  },
  {
    name: 'Critical CVSS anywhere',
    description: 'Every finding with a CVSS base score of 9.0 or more, whatever the product or device.',
    subject: {},
    endpoint: {},
    finding: { finding_types: ['vulnerability'], min_cvss_score: 9.0 },
  },
  {
    name: 'Executive devices',
    description: 'Laptops of the executive team, targeted by spear phishing.',
    subject: { subject_types: ['software', 'configuration'] },
    endpoint: { tags: ['vip'] },
    finding: { min_severity: 'medium' },
    endpointIds: (e) => e.role === 'EXE',
  },
  {
    name: 'Linux base packages',
    description: 'The C library, sudo, polkit, curl and compression tools of Linux hosts.',
    subject: { subject_types: ['software'], products: ['GNU C Library (glibc)', 'Sudo', 'polkit', 'curl', 'XZ Utils'], cpe_patterns: [cpe('glibc'), cpe('sudo'), cpe('xz')] },
    endpoint: { os_families: ['linux'], has_agent: true },
    finding: { finding_types: ['vulnerability'], min_severity: 'high' },
  },
  {
    name: 'Cloud workloads',
    description: 'Instances in the public cloud, patched by replacing their images.',
    subject: { subject_types: ['software', 'service'] },
    endpoint: { os_families: ['linux'], tags: ['cloud'] },
    finding: { min_severity: 'high' },
    endpointIds: (e) => e.cloud,
  },
  {
    name: 'Mail servers',
    description: 'Mail transfer agents and Exchange, exposed to mail from anywhere.',
    subject: { subject_types: ['service', 'software'], products: ['Exim', 'Postfix', 'Exchange Server'], cpe_patterns: [cpe('exim'), cpe('exchange')] },
    endpoint: { tags: ['mail'] },
    finding: { min_cvss_score: 6.0 },
  },
];

/** The teams and regions variants of the templates are made for, in larger datasets. */
const groups: readonly { label: string; tag: string; matches: (e: EndpointContext) => boolean }[] = [
  { label: 'EMEA', tag: 'emea', matches: (e) => e.region === 'emea' },
  { label: 'Americas', tag: 'amer', matches: (e) => e.region === 'amer' },
  { label: 'APAC', tag: 'apac', matches: (e) => e.region === 'apac' },
  { label: 'Engineering', tag: 'engineering', matches: (e) => e.role === 'ENG' },
  { label: 'Sales', tag: 'sales', matches: (e) => e.role === 'SAL' },
  { label: 'Support', tag: 'support', matches: (e) => e.role === 'SUP' },
  { label: 'Operations', tag: 'operations', matches: (e) => e.role === 'OPS' },
  { label: 'Marketing', tag: 'marketing', matches: (e) => e.role === 'MKT' },
  { label: 'IT', tag: 'it', matches: (e) => e.role === 'IT' },
  { label: 'Human Resources', tag: 'hr', matches: (e) => e.role === 'HR' },
  { label: 'Legal', tag: 'legal', matches: (e) => e.role === 'LEG' },
  { label: 'Pilot ring', tag: 'ring-0', matches: (e) => e.index % 20 === 0 },
];

function pickIds(endpoints: readonly EndpointContext[], predicate: (e: EndpointContext) => boolean, max: number, random: Random): string[] {
  const matching = endpoints.filter(predicate);
  for (let i = matching.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [matching[i], matching[j]] = [matching[j] as EndpointContext, matching[i] as EndpointContext];
  }
  return matching.slice(0, max).map((e) => e.record.id);
}

/** Generates `count` scopes; the first ones are the templates themselves. */
export function generateScopes(endpoints: readonly EndpointContext[], count: number, random: Random): Scope[] {
  const scopes: Scope[] = [];
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length] as ScopeTemplate;
    const round = Math.floor(i / templates.length);
    const group = round === 0 ? null : groups[(round - 1) % groups.length];
    const cycle = round === 0 ? 0 : Math.floor((round - 1) / groups.length);
    const endpoint: EndpointFilter = { ...template.endpoint };
    if (group) endpoint.tags = [...(template.endpoint.tags ?? []), group.tag];
    if (template.endpointIds) {
      const predicate = template.endpointIds;
      const ids = pickIds(endpoints, group ? (e) => predicate(e) && group.matches(e) : predicate, 25, random);
      if (ids.length > 0) endpoint.endpoint_ids = ids;
    }
    const suffix = group ? ` (${group.label}${cycle > 0 ? `, wave ${cycle + 1}` : ''})` : '';
    const roll = random.float();
    // A variant of an archived campaign stays archived.
    const status = group && template.status !== 'archived' ? (roll < 0.8 ? 'active' : roll < 0.92 ? 'paused' : 'archived') : (template.status ?? 'active');
    const createdMs = referenceMs - (5 + random.float() * 700) * DAY_MS;
    const updatedMs = createdMs + random.float() * (referenceMs - createdMs);
    scopes.push({
      id: random.uuid(),
      name: template.name + suffix,
      description: group ? `${template.description} Applies to ${group.label}.` : template.description,
      status,
      subject_filter: structuredClone(template.subject),
      endpoint_filter: endpoint,
      finding_filter: { ...template.finding },
      created_at: iso(createdMs),
      updated_at: iso(updatedMs),
    });
  }
  return scopes;
}
