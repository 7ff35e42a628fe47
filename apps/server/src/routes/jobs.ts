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
const jobErrors = { ...adminErrors, 404: errorDocumentSchema };

/** A job as its JSON:API resource. */
export function toJobDocument(job: JobRow): JobDocument {
  const self = jobPath(job.org_id, job.id);
  return {
    data: {
      type: 'jobs',
      id: job.id,
      attributes: {
        action: job.action,
        is_system_admin: job.is_system_admin,
        status: job.status,
        total: job.total,
        processed: job.processed,
        done: job.done,
        skipped: job.skipped,
        created_at: job.created_at.toISOString(),
        finished_at: job.finished_at?.toISOString() ?? null,
      },
      links: { self, results: `${self}/results` },
    },
  };
}

/** Sends a job, or 404: an id of no job of this organisation, whoever's it is, answers alike. */
export function sendJob(reply: FastifyReply, job: JobRow | undefined, status = 200) {
  if (!job) throw ApiProblem.notFound('The organisation has no job with this id.');
  reply.code(status).header('cache-control', 'private, no-store');
  return reply.type(JSON_API_MEDIA_TYPE).send(toJobDocument(job));
}

/** `POST …/users/bulk` with `filter`: a job over every matching user, answered 202 with its `Location`. */
export async function queueJob(
  request: FastifyRequest,
  reply: FastifyReply,
  jobs: JobsRepository,
  asked: Omit<NewJob, 'query' | 'requestId'> & { filter: string },
) {
  const parsed = jobQuery(asked.filter);
  if ('error' in parsed) {
    const detail = `filter must be the list's query string: ${parsed.error}`;
    throw ApiProblem.of(400, {
      code: 'invalid_filter',
      title: 'Invalid filter',
      detail,
      source: { parameter: 'filter' },
    });
  }
  const job = await jobs.create({ ...asked, query: parsed.query, requestId: request.id });
  request.log.info({ job: job.id, action: job.action, total: job.total }, 'job queued');
  reply.header('location', jobPath(job.org_id, job.id));
  return sendJob(reply, job, 202);
}

/** `GET` and `DELETE …/jobs/{id}` and `GET …/jobs/{id}/results`: an organisation's jobs, for its System Admins. */
export async function jobsRoutes(
  app: FastifyInstance,
  { sessions, jobs }: { sessions: SessionStore; jobs: JobsRepository },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['users'], params: jobPathSchema, response: { 200: jobDocumentSchema, ...jobErrors } };

  typed.get(
    JOB_PATH,
    {
      schema: {
        ...schema,
        summary: 'Follow a job',
        description:
          'Its status (queued, running, done, cancelled, failed), total, processed, done and skipped by reason.',
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      assertAdminOf(request, orgId);
      return sendJob(reply, await jobs.find(orgId, id));
    },
  );

  typed.delete(
    JOB_PATH,
    {
      schema: {
        ...schema,
        summary: 'Cancel a job',
        description:
          'A queued or running job stops after the batch in flight, whose changes stay; answers the job as it then ' +
          'stands. A finished job is left as it is.',
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      assertAdminOf(request, orgId);
      const job = await jobs.cancel(orgId, id);
      if (job?.status === 'cancelled') request.log.info({ job: id, processed: job.processed }, 'job cancelled');
      return sendJob(reply, job);
    },
  );

  typed.get(
    `${JOB_PATH}/results`,
    {
      schema: {
        tags: ['users'],
        params: jobPathSchema,
        summary: "A job's results as CSV",
        description: 'One row per user processed so far, in id order: user_id, name, email, result, reason, detail.',
        response: { 200: z.string().describe('text/csv; charset=utf-8'), ...jobErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      assertAdminOf(request, orgId);
      const job = await jobs.find(orgId, id);
      if (!job) throw ApiProblem.notFound('The organisation has no job with this id.');
      const rows = async function* () {
        for await (const batch of jobs.results(orgId, id)) {
          for (const row of batch) {
            const detail = row.reason ? reasonInWords(row.reason, job.action) : '';
            yield [row.user_id, row.name, row.email, row.result, row.reason ?? '', detail];
          }
        }
      };
      const columns = ['user_id', 'name', 'email', 'result', 'reason', 'detail'];
      const csv = stringify({ bom: true, header: true, columns, cast: { string: neutraliseFormula } });
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
    },
  );
}
