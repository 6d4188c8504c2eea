import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { requireSchemaActionOnAny } from '../../../domain/access/policy.js';
import { cancelSchedule, listSchedules } from '../../../domain/schedules/manage-schedules.js';
import type { Services } from '../../../domain/services.js';
import { requireSignInForRoutes } from '../../plugins/authenticate.js';
import { errorResponses, Meta, Success } from '../../schemas/common.js';
import { Schedule, ScheduleParams, ScheduleQuery } from './schemas.js';

/**
 * docs/schedules.md. Creating a schedule is a document route (`POST /documents/:type/:id/schedule`,
 * routes/documents); the operations ask the policy about each schedule's type.
 */
export async function scheduleRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  requireSignInForRoutes(app);

  app.get<{ Querystring: Static<typeof ScheduleQuery> }>(
    '/schedules',
    {
      schema: {
        summary: 'List schedules',
        description:
          'Ordered by `at`, then id; signed in, with read permission on each type named (without `type`: every type the caller ' +
          'may read). `from` is inclusive and `to` exclusive on `at` (docs/schedules.md, "Routes").',
        querystring: ScheduleQuery,
        response: { 200: Type.Object({ data: Type.Array(Schedule), meta: Meta }), ...errorResponses },
      },
    },
    async (req) => listSchedules(svc, req.principal, req.query),
  );

  app.delete<{ Params: Static<typeof ScheduleParams> }>(
    '/schedules/:id',
    {
      // The schedule's type is known once it is read; before that, publishing some type is needed.
      config: { permission: (p) => requireSchemaActionOnAny(p, svc.schemas.names, 'publish') },
      schema: {
        summary: 'Cancel a schedule',
        description:
          'A pending schedule becomes `cancelled` (kept, with `doneAt`); one that ran, was cancelled or is running now is 409 ' +
          '(docs/schedules.md, "Routes").',
        params: ScheduleParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await cancelSchedule(svc, req.principal, req.params.id);
      return { success: true as const };
    },
  );
}
