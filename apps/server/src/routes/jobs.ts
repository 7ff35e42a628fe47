import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorDocumentSchema, JSON_API_MEDIA_TYPE } from '@users-admin/contract';
import { type JobDocument, jobDocumentSchema, jobPath, jobPathSchema } from '@users-admin/contract/user-actions';
import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { JobRow } from '../db/schema.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import { type JobsRepository, jobQuery, type NewJob } from '../repositories/jobs-repository.ts';
import { reasonInWords } from '../repositories/user-action-rules.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';
import { neutraliseFormula } from './users-export.ts';

const JOB_PATH = '/apis/accounts/api/v3/orgs/:org_id/jobs/:id';
type JobAsked = Omit<NewJob, 'query' | 'requestId'> & { filter: string };
const RESULT_COLUMNS = ['user_id', 'name', 'email', 'result', 'reason', 'detail'];

/** A job as its JSON:API resource, or 404: an id of no job of this organisation, whoever's it is. */
function sendJob(reply: FastifyReply, job: JobRow | undefined, status = 200) {
  if (!job) throw ApiProblem.notFound('The organisation has no job with this id.');
  const self = jobPath(job.org_id, job.id);
  // The row's other columns (its filter, lease, cursor) are left out by the response's schema.
  const { created_at, finished_at } = job;
  const attributes = { ...job, created_at: created_at.toISOString(), finished_at: finished_at?.toISOString() ?? null };
  const links = { self, results: `${self}/results` };
  const document: JobDocument = { data: { type: 'jobs', id: job.id, attributes, links } };
  return reply.code(status).header('cache-control', 'private, no-store').type(JSON_API_MEDIA_TYPE).send(document);
}

/** `POST …/users/bulk` with `filter`: a job over every matching user, answered 202 with its `Location`. */
export async function queueJob(request: FastifyRequest, reply: FastifyReply, jobs: JobsRepository, asked: JobAsked) {
  const parsed = jobQuery(asked.filter);
  if ('error' in parsed) {
    const problem = { code: 'invalid_filter', title: 'Invalid filter', source: { parameter: 'filter' } };
    throw ApiProblem.of(400, { ...problem, detail: `filter must be the list's query string: ${parsed.error}` });
  }
  const job = await jobs.create({ ...asked, query: parsed.query, requestId: request.id });
  request.log.info({ job: job.id, action: job.action, total: job.total }, 'job queued');
  return sendJob(reply.header('location', jobPath(job.org_id, job.id)), job, 202);
}

/** A job's results as CSV, streamed batch by batch; 404 as `sendJob`. */
function sendResults(request: FastifyRequest, reply: FastifyReply, jobs: JobsRepository, job: JobRow | undefined) {
  if (!job) throw ApiProblem.notFound('The organisation has no job with this id.');
  const rows = async function* () {
    for await (const { user_id, name, email, result, reason } of jobs.results(job.org_id, job.id)) {
      yield [user_id, name, email, result, reason ?? '', reason ? reasonInWords(reason, job.action) : ''];
    }
  };
  const csv = stringify({ bom: true, header: true, columns: RESULT_COLUMNS, cast: { string: neutraliseFormula } });
  pipeline(Readable.from(rows()), csv).catch((error: unknown) =>
    (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE'
      ? request.log.info('job results cancelled')
      : request.log.error({ err: error }, 'job results failed'),
  );
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="job-${job.id}-results.csv"`)
    .header('cache-control', 'private, no-store')
    .send(csv as unknown as string); // A stream, sent as it is: the schema only describes it.
}

/** `GET` and `DELETE …/jobs/{id}` and `GET …/jobs/{id}/results`: an organisation's jobs, for its System Admins. */
export async function jobsRoutes(app: FastifyInstance, options: { sessions: SessionStore; jobs: JobsRepository }) {
  const { jobs } = options;
  app.addHook('onRequest', requireSession(options.sessions));
  app.addHook('preHandler', async (request: FastifyRequest<{ Params: { org_id: string } }>) => {
    assertAdminOf(request, request.params.org_id);
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const errors = { ...adminErrors, 404: errorDocumentSchema };
  const schema = { tags: ['users'], params: jobPathSchema, response: { 200: jobDocumentSchema, ...errors } };
  const status = 'Its status (queued, running, done, cancelled, failed), total, processed, done and skipped by reason.';
  const cancelling = 'A queued or running job stops after its batch in flight; a finished one is left as it is. ';
  const results = `One row per user processed so far, in id order: ${RESULT_COLUMNS.join(', ')}.`;
  const csv = { 200: z.string().describe('text/csv; charset=utf-8'), ...errors };

  typed.get(JOB_PATH, { schema: { ...schema, summary: 'Follow a job', description: status } }, async (request, reply) =>
    sendJob(reply, await jobs.find(request.params.org_id, request.params.id)),
  );

  const cancel = { ...schema, summary: 'Cancel a job', description: `${cancelling}${status}` };
  typed.delete(JOB_PATH, { schema: cancel }, async (request, reply) => {
    const job = await jobs.cancel(request.params.org_id, request.params.id);
    if (job?.status === 'cancelled') request.log.info({ job: job.id, processed: job.processed }, 'job cancelled');
    return sendJob(reply, job);
  });

  const listResults = { ...schema, summary: "A job's results as CSV", description: results, response: csv };
  typed.get(`${JOB_PATH}/results`, { schema: listResults }, async (request, reply) =>
    sendResults(request, reply, jobs, await jobs.find(request.params.org_id, request.params.id)),
  );
}
