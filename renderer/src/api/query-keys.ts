import type { CollectionName } from '../../../contracts/collections';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import type { ListFilters } from './list-pages';

/**
 * Every query key of the console, built here only, so that invalidation can name a whole
 * branch (all of an organization, all of its keys) without guessing at key shapes.
 */
export const queryKeys = {
  session: () => ['session'] as const,
  sessions: () => ['sessions'] as const,
  organizations: () => ['organizations'] as const,
  syncOverview: () => ['sync'] as const,
  organization: (slug: string) => ['org', slug] as const,
  dashboard: (slug: string, filters: ListFilters = {}) => [...queryKeys.organization(slug), 'dashboard', filters] as const,
  list: (slug: string, collection: CollectionName, filters: ListFilters) => [...queryKeys.organization(slug), 'list', collection, filters] as const,
  listPage: (slug: string, collection: CollectionName, filters: ListFilters, offset: number, limit: number) =>
    [...queryKeys.list(slug, collection, filters), offset, limit] as const,
  item: (slug: string, collection: CollectionName, id: string) => [...queryKeys.organization(slug), 'item', collection, id] as const,
  suggestions: (slug: string, collection: CollectionName, text: string, within: ListFilters) =>
    [...queryKeys.organization(slug), 'suggestions', collection, text, within] as const,
  scopeCoverage: (slug: string, scopeId: string) => [...queryKeys.organization(slug), 'coverage', scopeId] as const,
  scopeCoveredFindingsPage: (slug: string, scopeId: string, filters: ListFilters, offset: number) =>
    [...queryKeys.scopeCoverage(slug, scopeId), 'page', filters, offset] as const,
  coverageGaps: (slug: string) => [...queryKeys.organization(slug), 'gaps'] as const,
  coverageGapsPage: (slug: string, offset: number) => [...queryKeys.coverageGaps(slug), 'page', offset] as const,
  apiKeys: (slug: string) => [...queryKeys.organization(slug), 'api-keys'] as const,
  savedViews: (slug: string) => [...queryKeys.organization(slug), 'saved-views'] as const,
  software: (slug: string) => [...queryKeys.organization(slug), 'software'] as const,
  softwarePage: (slug: string, filters: ListFilters, offset: number, limit: number) => [...queryKeys.software(slug), 'list', filters, offset, limit] as const,
  softwareProduct: (slug: string, productId: string) => [...queryKeys.software(slug), 'product', productId] as const,
  softwareVersionsPage: (slug: string, productId: string, offset: number) => [...queryKeys.softwareProduct(slug, productId), 'versions', offset] as const,
  targetUpdate: (slug: string, targetId: string) => [...queryKeys.software(slug), 'target-update', targetId] as const,
  softwareVersion: (slug: string, productId: string, versionId: string) => [...queryKeys.softwareProduct(slug, productId), 'version', versionId] as const,
  softwareInstallsPage: (slug: string, productId: string, versionId: string, offset: number) =>
    [...queryKeys.softwareVersion(slug, productId, versionId), 'installs', offset] as const,
  remediationPlan: (slug: string, filters: ListFilters = {}) => [...queryKeys.organization(slug), 'remediation-plan', filters] as const,
  workPackages: (slug: string, filters: ListFilters = {}) => [...queryKeys.organization(slug), 'work-packages', filters] as const,
  workPackageChecks: (slug: string) => [...queryKeys.organization(slug), 'work-package-checks'] as const,
  statusMapping: (slug: string) => [...queryKeys.organization(slug), 'status-mapping'] as const,
  reports: (slug: string) => [...queryKeys.organization(slug), 'reports'] as const,
  exceptions: (slug: string, state: string) => [...queryKeys.organization(slug), 'exceptions', state] as const,
  endpointContext: (slug: string, endpointId: string) => [...queryKeys.organization(slug), 'endpoint-context', endpointId] as const,
  endpointTags: (slug: string) => [...queryKeys.organization(slug), 'endpoint-tags'] as const,
  tagRules: (slug: string) => [...queryKeys.organization(slug), 'tag-rules'] as const,
  slaPolicy: (slug: string) => [...queryKeys.organization(slug), 'sla-policy'] as const,
  fixBySettings: (slug: string) => [...queryKeys.organization(slug), 'fix-by-settings'] as const,
  fixBySummary: (slug: string) => [...queryKeys.organization(slug), 'fix-by-summary'] as const,
  remediationPerformance: (slug: string, filters: ListFilters = {}) => [...queryKeys.organization(slug), 'remediation-performance', filters] as const,
  syncChanges: (slug: string) => [...queryKeys.organization(slug), 'sync-changes'] as const,
  agentConfig: (slug: string) => [...queryKeys.organization(slug), 'agent-config'] as const,
  agentSettings: (slug: string) => [...queryKeys.agentConfig(slug), 'settings'] as const,
  agentConfigPreview: (slug: string, platform: AgentPlatform, profile: AgentProfile) => [...queryKeys.agentConfig(slug), 'preview', platform, profile] as const,
  /** Exploit intelligence is the installation's; what it changed for an organization is the organization's. */
  intel: () => ['intel'] as const,
  intelImports: () => [...queryKeys.intel(), 'imports'] as const,
  intelSettings: () => [...queryKeys.intel(), 'settings'] as const,
  epssHistory: (cveId: string) => [...queryKeys.intel(), 'epss', cveId.toUpperCase()] as const,
  intelChanges: (slug: string) => [...queryKeys.organization(slug), 'intel-changes'] as const,
  kevAgreement: (slug: string) => [...queryKeys.organization(slug), 'kev-agreement'] as const,
};
