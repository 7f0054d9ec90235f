import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgentConfigPreview, AgentSettingsView, UpdateAgentSettingsBody } from '../../../contracts/console/agent-settings';
import type { AgentPlatform, AgentProfile } from '../../../contracts/enums';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** The organization's agent settings: what its agent configuration files tell agents. */
export const agentSettingsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.agentSettings(slug),
    queryFn: ({ signal }) => consoleJson<AgentSettingsView>(`${org(slug)}/agent-settings`, { signal }),
  });

/** What the organization's file of that platform and profile will hold, before it is made. */
export const agentConfigPreviewQuery = (slug: string, platform: AgentPlatform, profile: AgentProfile) =>
  queryOptions({
    queryKey: queryKeys.agentConfigPreview(slug, platform, profile),
    queryFn: ({ signal }) =>
      consoleJson<AgentConfigPreview>(`${org(slug)}/agent-config/preview?${new URLSearchParams({ platform, profile }).toString()}`, { signal }),
  });

/**
 * Saves the organization's agent settings. Every preview follows from them, so the whole
 * agent configuration branch is invalidated; a refused body (400) changes nothing.
 */
export function useUpdateAgentSettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAgentSettingsBody) => consoleJson<AgentSettingsView>(`${org(slug)}/agent-settings`, { method: 'PUT', json: body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.agentSettings(slug), saved);
      return queryClient.invalidateQueries({ queryKey: queryKeys.agentConfig(slug) });
    },
  });
}
