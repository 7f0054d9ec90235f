/**
 * The generated dataset's endpoint context (issue 28): tag rules as an IT team writes them from
 * its naming conventions, address plan and OS editions, and a few tags and criticalities set by
 * hand where no rule can know them (the finance servers under SOX, the executives' machines, the
 * pilot ring, what an outage of would stop the company). The rules give every tag the generated
 * scopes filter by, so that those scopes are evaluated.
 */
import type { CreateTagRuleBody } from '../../contracts/console/endpoint-context.js';
import type { Endpoint } from '../../contracts/endpoint.js';
import type { EndpointCriticality } from '../../contracts/enums.js';
import { compileGlob } from '../../contracts/glob.js';
import type { Inventory } from '../../contracts/inventory.js';

/** A rule of the demo, its note saying why it is there. */
const rule = (tag: string, conditions: CreateTagRuleBody['conditions'], note: string): CreateTagRuleBody => ({ tag, conditions, note });

const perimeterHosts = '{fgt,pa,adc,vpn,pf-edge}-*';

/** The demo's tag rules, oldest first. */
export const demoTagRules: readonly CreateTagRuleBody[] = [
  rule('server', [{ kind: 'os_name', pattern: 'Windows Server*' }], 'Every Windows Server edition.'),
  rule(
    'server',
    [{ kind: 'hostname', pattern: '{web,app,db,ci,wiki,mq,mail,k8s-node,bastion,mon,srv}-*' }, { kind: 'os_family', os_family: 'linux' }],
    'Linux servers, by the data centre naming convention.',
  ),
  rule('server', [{ kind: 'hostname', pattern: 'ip-*' }, { kind: 'os_family', os_family: 'linux' }], 'Cloud instances keep the name the cloud gives them.'),
  rule('cloud', [{ kind: 'ip', cidr: '10.0.0.0/14' }, { kind: 'os_family', os_family: 'linux' }], 'The VPCs are 10.0.0.0/14.'),
  rule('dmz', [{ kind: 'ip', cidr: '172.16.0.0/16' }], 'The DMZ segment of the data centre.'),
  rule('workstation', [{ kind: 'hostname', pattern: '{WKS,LT,DESKTOP}-*' }], 'Windows workstations and laptops.'),
  rule('workstation', [{ kind: 'os_family', os_family: 'macos' }], 'Every Mac is someone’s workstation.'),
  rule('laptop', [{ kind: 'hostname', pattern: '{LT-*,mbp-*,mba-*,*-MacBook-Pro}' }], 'Laptops, by name.'),
  rule('perimeter', [{ kind: 'hostname', pattern: perimeterHosts }], 'Firewalls, VPN gateways and load balancers.'),
  rule('internet-facing', [{ kind: 'hostname', pattern: perimeterHosts }], 'The perimeter answers the internet.'),
  rule('internet-facing', [{ kind: 'hostname', pattern: '{web,mail}-prod-*' }], 'Production web and mail servers are published.'),
  rule('mail', [{ kind: 'hostname', pattern: '{mail-*,SRV-EXCH-*}' }], 'Exchange and the Linux mail relays.'),
  rule('legacy', [{ kind: 'os_name', pattern: '{Windows 7*,Windows Server 2008*}' }], 'Out of vendor support.'),
  rule('unmanaged', [{ kind: 'agent', has_agent: false }], 'No agent reports from it.'),
  rule('finance', [{ kind: 'hostname', pattern: '*-FIN-*' }], 'Department code in the hostname.'),
  rule('engineering', [{ kind: 'hostname', pattern: '{*-ENG-*,dev-*}' }], 'Department code in the hostname, and developer machines.'),
  rule('sales', [{ kind: 'hostname', pattern: '*-SAL-*' }], 'Department code in the hostname.'),
  rule('support', [{ kind: 'hostname', pattern: '*-SUP-*' }], 'Department code in the hostname.'),
  rule('operations', [{ kind: 'hostname', pattern: '*-OPS-*' }], 'Department code in the hostname.'),
  rule('marketing', [{ kind: 'hostname', pattern: '*-MKT-*' }], 'Department code in the hostname.'),
  rule('it', [{ kind: 'hostname', pattern: '*-IT-*' }], 'Department code in the hostname.'),
  rule('hr', [{ kind: 'hostname', pattern: '*-HR-*' }], 'Department code in the hostname.'),
  rule('legal', [{ kind: 'hostname', pattern: '*-LEG-*' }], 'Department code in the hostname.'),
  rule('executive', [{ kind: 'hostname', pattern: '*-EXE-*' }], 'Department code in the hostname.'),
  rule('amer', [{ kind: 'ip', cidr: '10.10.0.0/16' }], 'Headquarters.'),
  rule('amer', [{ kind: 'ip', cidr: '10.20.0.0/14' }], 'New York, San Francisco, Toronto.'),
  rule('emea', [{ kind: 'ip', cidr: '10.30.0.0/15' }], 'London, Amsterdam.'),
  rule('emea', [{ kind: 'ip', cidr: '10.32.0.0/16' }], 'Frankfurt.'),
  rule('apac', [{ kind: 'ip', cidr: '10.40.0.0/15' }], 'Singapore, Sydney.'),
];

/** What is set by hand on one endpoint of the demo. */
export interface DemoEndpointContext {
  id: string;
  tags: string[];
  criticality: EndpointCriticality;
}

/** Criticality by hostname, first match: what an outage or a breach of would cost. */
const criticalityByName: readonly [(hostname: string) => boolean, EndpointCriticality][] = [
  [compileGlob('{DC-*,SRV-SQL-*,db-prod-*}'), 'critical'],
  [compileGlob(perimeterHosts), 'critical'],
  [compileGlob('{SRV-EXCH-*,SRV-APP-*,SRV-MFT-*,mail-prod-*,web-prod-*,app-prod-*,bastion-*}'), 'high'],
  [compileGlob('*-EXE-*'), 'high'],
  [compileGlob('{dev-*,*-dev-*,*-stg-*,CB-*}'), 'low'],
];
/** Tags no rule can know, by hostname. */
const tagsByName: readonly [(hostname: string) => boolean, string[]][] = [
  [compileGlob('{SRV-SQL-*,SRV-APP-*,db-prod-*}'), ['sox', 'finance']],
  [compileGlob('*-EXE-*'), ['vip']],
  [compileGlob('web-prod-*'), ['pci']],
];

/** The tags and criticality set by hand on the generated endpoints (those with any). */
export function demoEndpointContext(endpoints: readonly Endpoint[]): DemoEndpointContext[] {
  return endpoints.flatMap((endpoint, index) => {
    const tags = tagsByName.flatMap(([test, tags]) => (test(endpoint.hostname) ? tags : []));
    // The pilot ring of updates: every twentieth endpoint, as the scopes' "Pilot ring" variants name it.
    if (index % 20 === 0) tags.push('ring-0');
    const criticality = criticalityByName.find(([test]) => test(endpoint.hostname))?.[1] ?? 'normal';
    return tags.length || criticality !== 'normal' ? [{ id: endpoint.id, tags: [...new Set(tags)], criticality }] : [];
  });
}

/** The generated dataset's context: its rules and what is set by hand. */
export function generateEndpointContext(inventory: Inventory): { rules: readonly CreateTagRuleBody[]; endpoints: DemoEndpointContext[] } {
  return { rules: demoTagRules, endpoints: demoEndpointContext(inventory.endpoints) };
}
