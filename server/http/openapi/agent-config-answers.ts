import { agentConfigFileSchema } from '../../../contracts/agent-config.js';
import { type Responses, errorResponse, fileResponse, queryErrors } from './responses.js';

/**
 * The answers of an agent configuration download, the same under /v1 and /app: a replica
 * organization's file comes from its remote tenant; whatever else that answers is a 502.
 */
export const agentConfigAnswers: Responses = {
  200: fileResponse('application/octet-stream', agentConfigFileSchema, 'The signed file.'),
  ...queryErrors('platform is missing or invalid, profile is invalid, or the profile is an MDM profile and the platform is not macos.'),
  409: errorResponse(
    'The organization has no enrollment secret, or not the agent settings the file needs: its server URL (the URL agents reach; it has no default), ' +
      'and for the `mdm-full` and `mdm-permissions` profiles its Team ID, which their privacy and login-item rules pin. The message names what is missing and how to set it.',
  ),
  502: errorResponse(
    "A replica organization's remote tenant gave no file: it could not be reached, answered an error, or sent more than 8 MiB. The message names the remote and describes its answer; the remote's own status and text are never passed on.",
  ),
};
