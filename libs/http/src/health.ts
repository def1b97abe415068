import { defineRoute, type AnyRoute } from '@lib/routing';
import { z } from '@lib/validation';
import type { Lifecycle } from './lifecycle';

const healthBody = z.strictObject({ status: z.string() });

/** `/healthz` (process alive) and `/readyz` (database answers, not shutting down); no credentials. */
export function healthRoutes(isReady: () => Promise<boolean>, lifecycle: Lifecycle): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      auth: 'public',
      summary: 'Liveness: the process is up',
      tags: ['health'],
      responses: { 200: { description: 'Alive', schema: healthBody } },
      handler: () => ({ status: 200, body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      auth: 'public',
      summary: 'Readiness: started, the database answers and the process is not shutting down',
      tags: ['health'],
      responses: {
        200: { description: 'Ready to serve', schema: healthBody },
        503: { description: 'Starting, database unavailable or shutting down', schema: healthBody },
      },
      handler: async () => {
        const headers = { 'Cache-Control': 'no-store' };
        if (lifecycle.shuttingDown) return { status: 503, body: { status: 'shutting_down' }, headers };
        if (lifecycle.starting) return { status: 503, body: { status: 'starting' }, headers };
        if (!(await isReady())) return { status: 503, body: { status: 'database_unavailable' }, headers };
        return { status: 200, body: { status: 'ready' }, headers };
      },
    }),
  ];
}
