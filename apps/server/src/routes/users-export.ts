import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  EXPORT_COUNT_HEADER,
  type ExportColumn,
  type ExportRequest,
  errorDocumentSchema,
  exportPathSchema,
  exportQuerySchema,
  exportRequestSchema,
  toUserListQuery,
} from '@users-admin/contract';
import { stringify } from 'csv-stringify';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { UsersExportRepository } from '../repositories/users-export-repository.ts';
import type { ListedUser } from '../repositories/users-repository.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';

const csvSchema = z.string().describe('text/csv; charset=utf-8, one header row, then one row per user');

/** A cell a spreadsheet would run as a formula, made text by a leading quote (OWASP: CSV injection). */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A user's cell of each column, in the page's words. */
const CELLS: Record<ExportColumn, (user: ListedUser, words: ExportRequest['values']) => string> = {
  name: (user) => user.name,
  email: (user) => user.email,
  data_source: (user, words) => (user.is_external ? words.third_party : words.platform),
  status: (user, words) => words[user.status],
  user_type: (user, words) => (user.is_system_admin ? words.system_admin : words.user),
  last_sign_in: (user, words) => user.last_sign_in_at?.toISOString() ?? words.never,
  created: (user) => user.created_at.toISOString(),
};

/**
 * `POST /apis/accounts/api/v3/orgs/{org_id}/users/export`: the view (or a selection of it) as CSV,
 * streamed from the database batch by batch, so that memory stays flat however many users.
 */
export async function usersExportRoutes(
  app: FastifyInstance,
  { sessions, exports }: { sessions: SessionStore; exports: UsersExportRepository },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/apis/accounts/api/v3/orgs/:org_id/users/export',
    {
      schema: {
        summary: "Export an organisation's users as CSV",
        description:
          "Every user matching the search and filters of the query string (the list's, without paging), in its order, " +
          'or the selection of the body, as UTF-8 CSV with a byte order mark. The x-total-count header says how many ' +
          'rows follow. Cells a spreadsheet would run as a formula start with a quote. Only a System Admin may export.',
        tags: ['users'],
        params: exportPathSchema,
        querystring: exportQuerySchema,
        body: exportRequestSchema,
        response: { 200: csvSchema, 400: errorDocumentSchema, ...adminErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      assertAdminOf(request, orgId);
      const query = toUserListQuery(request.query);
      const { columns, values, selection } = request.body;
      const [count, slug] = await Promise.all([
        exports.countSelected(orgId, query, selection),
        exports.organizationSlug(orgId),
      ]);
      const rows = async function* () {
        for await (const batch of exports.walkInOrder(orgId, query, selection)) {
          for (const user of batch) yield columns.map((column) => CELLS[column.key](user, values));
        }
      };
      const csv = stringify({
        bom: true,
        header: true,
        columns: columns.map((column) => column.header),
        cast: { string: neutraliseFormula },
      });
      // A failure half-way ends the answer short: the page, counting rows against x-total-count, says so.
      // A browser that cancels closes the answer early: that stops the walk, and is no error.
      pipeline(Readable.from(rows()), csv).catch((error: unknown) =>
        (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE'
          ? request.log.info('export cancelled')
          : request.log.error({ err: error }, 'export failed'),
      );
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="users-${slug ?? orgId}-${date}.csv"`)
        .header(EXPORT_COUNT_HEADER, String(count))
        .header('cache-control', 'private, no-store')
        .send(csv as unknown as string); // A stream, sent as it is: the schema only describes it.
    },
  );
}
