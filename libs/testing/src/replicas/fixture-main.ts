// A minimal service for the replica harness's own test: answers GET /pid with its process id.
import { databaseReady } from '@lib/mongo';
import { defineRoute } from '@lib/routing';
import { z } from '@lib/validation';
import { buildServiceApp, runService, startOrExit } from '@lib/http';

const pidRoute = defineRoute({
  method: 'get',
  path: '/pid',
  auth: 'public',
  summary: 'The process id of this replica',
  tags: ['fixture'],
  responses: { 200: { description: 'process id', schema: z.object({ pid: z.number() }) } },
  handler: () => ({ status: 200, body: { pid: process.pid } }),
});

startOrExit('replica-fixture', () =>
  runService({
    name: 'replica-fixture',
    port: Number(process.env.PORT),
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    database: { url: process.env.MONGO_URL, dbName: 'fixture' },
    createApp: ({ connection, logger, lifecycle }) =>
      buildServiceApp({
        logger,
        lifecycle,
        routes: [pidRoute],
        errorFormat: ({ code, message }) => ({ code, message }),
        isReady: () => databaseReady(connection),
        openapi: { title: 'fixture', version: '0' },
      }),
  }),
);
