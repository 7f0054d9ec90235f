import express from 'express';
import * as z from 'zod';
import {
  epssAttribution,
  threatIntelFileBounds,
  threatIntelImportAnswerSchema,
  threatIntelImportListSchema,
} from '../../../contracts/console/threat-intel.js';
import { IntelFileError } from '../../store/intel/intel-file-error.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';

const fileLimitText = `${threatIntelFileBounds.fileBytes / 1024 / 1024} MB`;

/**
 * Reads the body whole as bytes, whatever its content type (a file as a browser or curl sends
 * it); past the bound, a 413 that says so.
 */
function fileBody(): express.RequestHandler {
  const readRaw = express.raw({ type: () => true, limit: threatIntelFileBounds.fileBytes });
  return (req, res, next) =>
    readRaw(req, res, (error?: unknown) => {
      const type = (error as { type?: string } | undefined)?.type;
      if (type === 'entity.too.large') return next(new HttpError(413, `The file is larger than ${fileLimitText}, the most an import takes.`));
      if (type === 'request.aborted' || type === 'request.size.invalid') return next(new HttpError(400, 'The file did not arrive whole: the upload was cut.'));
      next(error);
    });
}

/**
 * Exploit intelligence under `/app/intel`: import a file (FIRST's EPSS CSV, CISA's or ENISA's
 * KEV catalog, gzip or plain, recognised by its content) and list the imports. Intelligence is
 * the installation's, not an organization's.
 */
export function threatIntelRoutes(store: Store): express.Router {
  const router = express.Router();

  router.get('/intel/imports', (_req, res) => {
    res.json({ data: store.intel.list(), attribution: epssAttribution });
  });

  router.post('/intel/imports', fileBody(), async (req, res, next) => {
    try {
      const bytes: Uint8Array = Buffer.isBuffer(req.body) ? req.body : new Uint8Array();
      const answer = await store.intel.importFile(bytes);
      res.status(answer.already_imported ? 200 : 201).json(answer);
    } catch (error) {
      next(error instanceof IntelFileError ? new HttpError(400, error.message) : error);
    }
  });

  return router;
}

/** {@link threatIntelRoutes} in the /app OpenAPI document. */
export const threatIntelOperations: OpenApiRouteRegistrar = (registry) => {
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/intel/imports',
    operationId: 'listThreatIntelImports',
    summary: 'List the imports of exploit intelligence',
    description: `Every import of an EPSS file or a KEV catalog, the newest first, each with its kind, the file's own date and version, its rows and SHA-256, and whether its figures are the current ones of its kind. EPSS figures are FIRST's: "${epssAttribution}".`,
    tag: 'Threat intelligence',
    responses: { 200: jsonResponse(threatIntelImportListSchema, 'The imports.') },
  });
  registerConsoleOperation(registry, {
    method: 'post',
    path: '/intel/imports',
    operationId: 'importThreatIntel',
    summary: 'Import an EPSS file or a KEV catalog',
    description:
      "The file as the body, any content type, gzip or plain: FIRST's EPSS daily CSV (`epss_scores-YYYY-MM-DD.csv.gz`), CISA's KEV catalog JSON or ENISA's EU KEV JSON, each recognised by its content, not its name. " +
      'The file is read whole and checked before anything is written: one malformed, truncated, past the bounds or of no known kind is a 400 naming the line or field, and nothing changes. ' +
      "A file older than the current one of its kind is recorded (an EPSS file's figures kept as history for the CVEs some organization names) and does not replace the current figures. " +
      'The same file imported again (same kind and SHA-256) changes nothing and answers its earlier record (200). Intelligence is kept across syncs and never served by /v1.',
    tag: 'Threat intelligence',
    request: {
      body: {
        required: true,
        content: {
          'application/octet-stream': {
            schema: z.string().meta({ format: 'binary', description: 'The file, gzip or plain.' }),
            example: '#model_version:example,score_date:2026-09-29T00:00:00Z\ncve,epss,percentile\nCVE-2021-44228,0.94358,0.99957\nCVE-1999-0001,5e-05,0.00012\n',
          },
        },
      },
    },
    responses: {
      200: jsonResponse(threatIntelImportAnswerSchema, 'This file was imported before: its record, and nothing changed.'),
      201: jsonResponse(threatIntelImportAnswerSchema, 'Imported: its record.'),
      400: errorResponse('The file is empty, malformed, truncated, past a bound or of no known kind (the message names the line or field); nothing changed.'),
      413: errorResponse(`The file is larger than ${fileLimitText}.`),
    },
  });
};
