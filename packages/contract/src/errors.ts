import { z } from 'zod';

/** A JSON:API error object (https://jsonapi.org/format/#error-objects). */
export const apiErrorSchema = z.object({
  status: z.string(),
  code: z.string(),
  title: z.string(),
  detail: z.string().optional(),
  source: z.object({ parameter: z.string() }).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const errorDocumentSchema = z.object({ errors: z.array(apiErrorSchema).min(1) });
export type ErrorDocument = z.infer<typeof errorDocumentSchema>;

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';
