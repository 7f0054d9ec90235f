/**
 * The platform-native configuration files of `profile=config`: what an admin installs by hand or
 * with a configuration-management tool. Each is signed apart (a detached .p7s beside it).
 */
import { build as buildPlist } from 'plist';
import { Document } from 'yaml';
import { linuxConfigPath, windowsPolicyKey } from './agent-identity.js';
import { type AgentSettings, agentSettingList, pascalCaseSettings } from './agent-settings.js';
import { nativeConfigFileNames, platformConfigFileNames } from './file-contents.js';
import type { AgentPlatform } from '../../contracts/enums.js';

/** A file of the ZIP, before signing. */
export interface NativeConfigFile {
  name: string;
  bytes: Buffer;
  /** It holds the enrollment secret: extracted with owner-only permissions. */
  holdsSecret: boolean;
}

/**
 * The configuration file(s) of a platform for these settings, named and ordered by
 * {@link platformConfigFileNames} (the macOS plist by the agent's bundle id, its preference domain).
 * Every one holds the enrollment secret. `bundleId` names the macOS plist; the other platforms' files carry none.
 */
export function nativeConfigFiles(platform: AgentPlatform, settings: AgentSettings, bundleId: string | undefined): NativeConfigFile[] {
  const bytesOf = (name: string): Buffer => {
    switch (name) {
      case nativeConfigFileNames.windowsRegistry:
        return registryFile(pascalCaseSettings(settings));
      case nativeConfigFileNames.windowsJson:
        return Buffer.from(`${JSON.stringify(pascalCaseSettings(settings), null, 2)}\n`);
      case nativeConfigFileNames.linuxYaml:
        return Buffer.from(yamlFile(settings));
      default:
        return Buffer.from(xmlPlist(pascalCaseSettings(settings)));
    }
  };
  return platformConfigFileNames(platform, bundleId).map((name) => ({ name, bytes: bytesOf(name), holdsSecret: true }));
}

/** An XML property list indented with tabs, as Apple's tools write one. */
export function xmlPlist(value: Parameters<typeof buildPlist>[0]): string {
  return `${buildPlist(value, { indent: '\t' })}\n`;
}

/**
 * A `.reg` file for HKLM in regedit's own export format: "Windows Registry Editor Version 5.00",
 * UTF-16LE with a byte-order mark and CRLF lines. regedit and `reg import` read UTF-16LE without
 * ambiguity, while an 8-bit file would be read in the machine's ANSI code page and garble any
 * non-ASCII character of a value.
 */
export function registryFile(values: Record<string, string | number>): Buffer {
  const lines = [
    'Windows Registry Editor Version 5.00',
    '',
    '; Remediation Console agent settings. Import as an administrator: reg import RemediationConsoleAgent.reg',
    '',
    `[${windowsPolicyKey}]`,
    ...Object.entries(values).map(([name, value]) =>
      typeof value === 'number'
        ? `"${registryString(name)}"=dword:${value.toString(16).padStart(8, '0')}`
        : `"${registryString(name)}"="${registryString(value)}"`,
    ),
    '',
    '',
  ];
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\r\n'), 'utf16le')]);
}

function registryString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/**
 * The YAML of /etc/remediation-console/agent.yaml. Every string is double-quoted so that no YAML
 * 1.1 reader turns a value into a date, a boolean or a number.
 */
function yamlFile(settings: AgentSettings): string {
  const document = new Document(
    Object.fromEntries(agentSettingList(settings).map(({ snakeName, value }) => [snakeName, value])),
  );
  document.commentBefore =
    ` Remediation Console agent configuration. Install as ${linuxConfigPath},\n` +
    ' owned by root with mode 0600: it holds the enrollment secret.';
  return document.toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 });
}
