/**
 * The one zod instance of the project, extended with `.openapi()` so that every schema can
 * carry the metadata the OpenAPI document is generated from.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
