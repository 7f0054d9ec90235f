/**
 * The settings an agent is configured with, and their names in each file format: PascalCase where
 * the platform's convention is (plist, registry, the Windows JSON twin of the registry),
 * snake_case in the Linux YAML. One table, so every format carries exactly the same settings.
 */

/** What every generated file records about itself, the permissions-only profile too. */
export interface ConfigRecord {
  organizationId: string;
  /** A uuid v4, new for each generated file, so a fleet can tell which file a device got. */
  configId: string;
  /** ISO 8601 UTC. */
  generatedAt: string;
}

/** What every generated configuration tells the agent. */
export interface AgentSettings extends ConfigRecord {
  serverUrl: string;
  enrollmentSecret: string;
}

/** Agent defaults, written into each file so an admin sees and can edit them in one place. */
export const agentDefaults = {
  logLevel: 'info',
  checkInIntervalSeconds: 300,
  inventoryIntervalSeconds: 3600,
  requestTimeoutSeconds: 30,
} as const;

/** One setting: its names per format and its value. */
export interface AgentSetting {
  /** plist key, registry value name, JSON key. */
  pascalName: string;
  /** YAML key. */
  snakeName: string;
  value: string | number;
  /** Only the enrollment secret: files holding it get owner-only permissions. */
  secret?: boolean;
}

/** The settings of a file, in the order they are written. */
export function agentSettingList(settings: AgentSettings): AgentSetting[] {
  return [
    { pascalName: 'ServerURL', snakeName: 'server_url', value: settings.serverUrl },
    { pascalName: 'OrganizationID', snakeName: 'organization_id', value: settings.organizationId },
    { pascalName: 'EnrollmentSecret', snakeName: 'enrollment_secret', value: settings.enrollmentSecret, secret: true },
    { pascalName: 'ConfigID', snakeName: 'config_id', value: settings.configId },
    { pascalName: 'GeneratedAt', snakeName: 'generated_at', value: settings.generatedAt },
    { pascalName: 'LogLevel', snakeName: 'log_level', value: agentDefaults.logLevel },
    { pascalName: 'CheckInIntervalSeconds', snakeName: 'check_in_interval_seconds', value: agentDefaults.checkInIntervalSeconds },
    { pascalName: 'InventoryIntervalSeconds', snakeName: 'inventory_interval_seconds', value: agentDefaults.inventoryIntervalSeconds },
    { pascalName: 'RequestTimeoutSeconds', snakeName: 'request_timeout_seconds', value: agentDefaults.requestTimeoutSeconds },
  ];
}

/** The settings as one object keyed by PascalCase names (plist payload, JSON file). */
export function pascalCaseSettings(settings: AgentSettings): Record<string, string | number> {
  return Object.fromEntries(agentSettingList(settings).map((s) => [s.pascalName, s.value]));
}
