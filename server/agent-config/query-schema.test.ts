import { describe, expect, it } from 'vitest';
import { agentConfigQuerySchema, checkPlatformProfile } from '../../contracts/agent-config.js';

function firstIssue(query: Record<string, string>): { path: string; message: string } | undefined {
  const result = agentConfigQuerySchema.safeParse(query);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return { path: String(issue.path[0]), message: issue.message };
}

describe('agentConfigQuerySchema', () => {
  it('takes a platform and defaults the profile to config', () => {
    expect(agentConfigQuerySchema.parse({ platform: 'linux' })).toEqual({ platform: 'linux', profile: 'config' });
    expect(agentConfigQuerySchema.parse({ platform: 'macos', profile: 'mdm-permissions' })).toEqual({
      platform: 'macos',
      profile: 'mdm-permissions',
    });
  });

  it('names the allowed values of a missing or invalid platform', () => {
    expect(firstIssue({})).toEqual({ path: 'platform', message: 'is required: one of linux, macos, windows' });
    expect(firstIssue({ platform: 'MacOS' })).toEqual({ path: 'platform', message: 'must be one of linux, macos, windows' });
    expect(firstIssue({ platform: '' })).toEqual({ path: 'platform', message: 'must be one of linux, macos, windows' });
  });

  it('names the allowed values of an invalid profile', () => {
    expect(firstIssue({ platform: 'macos', profile: 'full' })).toEqual({
      path: 'profile',
      message: 'must be one of config, mdm-full, mdm-permissions',
    });
  });
});

describe('checkPlatformProfile', () => {
  it.each([
    ['windows', 'mdm-full'],
    ['windows', 'mdm-permissions'],
    ['linux', 'mdm-full'],
    ['linux', 'mdm-permissions'],
  ] as const)('refuses %s with %s, naming both', (platform, profile) => {
    expect(checkPlatformProfile(platform, profile)).toBe(
      `profile "${profile}" is only available for platform "macos", not "${platform}"`,
    );
  });

  it.each([
    ['macos', 'config'],
    ['macos', 'mdm-full'],
    ['macos', 'mdm-permissions'],
    ['windows', 'config'],
    ['linux', 'config'],
  ] as const)('accepts %s with %s', (platform, profile) => {
    expect(checkPlatformProfile(platform, profile)).toBeUndefined();
  });
});
