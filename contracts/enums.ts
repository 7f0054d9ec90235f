/**
 * The enumerated values of the contracts, as plain arrays: usable where zod is not loaded (the
 * renderer's controls, the store's SQL), and the one place each list of values is written.
 */

/** Operating system families an endpoint reports. */
export const osFamilies = ['macos', 'windows', 'linux', 'other'] as const;
export type OsFamily = (typeof osFamilies)[number];

/** The families the `osFamily` filter and a scope's `os_families` accept. */
export const filterableOsFamilies = ['macos', 'windows', 'linux'] as const satisfies readonly OsFamily[];
export type FilterableOsFamily = (typeof filterableOsFamilies)[number];

export const targetTypes = ['software', 'os_patch', 'configuration', 'service'] as const;
export type TargetType = (typeof targetTypes)[number];

export const targetStatuses = ['active', 'stale', 'resolved'] as const;
export type TargetStatus = (typeof targetStatuses)[number];

export const scopeStatuses = ['active', 'paused', 'archived'] as const;
export type ScopeStatus = (typeof scopeStatuses)[number];

/** Severities, most severe first: the order `min_severity` of a scope counts in. */
export const findingSeverities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type FindingSeverity = (typeof findingSeverities)[number];

export const findingStatuses = ['open', 'remediated'] as const;
export type FindingStatus = (typeof findingStatuses)[number];

/** Subject types a scope's `subject_filter` names. */
export const scopeSubjectTypes = ['software', 'service', 'configuration'] as const;

/** Finding types a scope's `finding_filter` names. */
export const scopeFindingTypes = ['vulnerability', 'deprecation', 'compliance', 'licensing', 'standardization'] as const;

/** Operating systems an agent configuration is generated for. */
export const agentPlatforms = ['linux', 'macos', 'windows'] as const;
/** A target operating system of an agent configuration. */
export type AgentPlatform = (typeof agentPlatforms)[number];

/** Kinds of agent configuration file. */
export const agentProfiles = ['config', 'mdm-full', 'mdm-permissions'] as const;
/** A kind of agent configuration file: native config files, or a signed macOS profile. */
export type AgentProfile = (typeof agentProfiles)[number];

/** The profiles that are macOS configuration profiles (.mobileconfig), valid only for macos. */
export const mdmProfiles = ['mdm-full', 'mdm-permissions'] as const satisfies readonly AgentProfile[];

/** The ways secrets at rest are sealed (DESIGN section 4): the app's safeStorage, a key file, or plain text the user agreed to. */
export const secretProtections = ['system-keychain', 'key-file', 'plain-text'] as const;
export type SecretProtection = (typeof secretProtections)[number];

/**
 * A full sync replaces the replica; an incremental one merges what changed since the last
 * success; a reconcile compares the replica with the whole remote item by item and applies only
 * the differences (deletions and changes without a newer `updated_at` included).
 */
export const syncModes = ['full', 'incremental', 'reconcile'] as const;
export type SyncMode = (typeof syncModes)[number];

/** Where a running sync is: checking the remote, fetching a collection, or writing the replica. */
export const syncPhases = ['checking', 'fetching', 'writing'] as const;
export type SyncPhase = (typeof syncPhases)[number];

/** Kinds of organization: its data lives here, or it is a replica of a remote tenant. */
export const organizationKinds = ['local', 'replica'] as const;
export type OrganizationKind = (typeof organizationKinds)[number];

/**
 * How much an endpoint matters to its organization, least first; `normal` is every endpoint's
 * until it is set. Local context of this installation (never in /v1).
 */
export const endpointCriticalities = ['low', 'normal', 'high', 'critical'] as const;
export type EndpointCriticality = (typeof endpointCriticalities)[number];

/** The criticality of an endpoint nobody set. */
export const defaultEndpointCriticality: EndpointCriticality = 'normal';

/** What a tag rule's condition tests of an endpoint (see contracts/console/endpoint-context.ts). */
export const tagRuleConditionKinds = ['hostname', 'ip', 'os_family', 'os_name', 'agent'] as const;
export type TagRuleConditionKind = (typeof tagRuleConditionKinds)[number];

/** The bounds of endpoint tags: a tag's length, and how many one endpoint carries (explicit and from rules). */
export const endpointTagLimits = { tagLength: 64, tagsPerEndpoint: 32, rulesPerOrganization: 200, conditionsPerRule: 8 } as const;
