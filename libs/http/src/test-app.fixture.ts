import type { ErrorDescription } from '@lib/errors';
import { defineRoute } from '@lib/routing';
import { pathId, z } from '@lib/validation';
import pino from 'pino';
import type { ServiceAppOptions } from './build-app';
import { createLifecycle } from './lifecycle';

/** GET /items/:id answering `{ id }`: the route this lib's app tests call. */
export const getItem = defineRoute({
  method: 'get',
  path: '/items/:id',
  auth: 'public',
  summary: 'One item',
  request: { params: z.strictObject({ id: pathId }) },
  responses: { 200: { description: 'The item', schema: z.object({ id: z.number() }) } },
  handler: ({ params }) => ({ status: 200, body: { id: params.id } }),
});

/** POST /items answering 201 with the body it took. */
export const addItem = defineRoute({
  method: 'post',
  path: '/items',
  auth: 'public',
  summary: 'Add an item',
  request: { body: z.strictObject({ name: z.string() }) },
  responses: { 201: { description: 'Added', schema: z.object({ name: z.string() }) } },
  handler: ({ body }) => ({ status: 201, body }),
});

/**
 * buildServiceApp's options for a test app: silent, ready, the error body `{ error: { code } }`;
 * each test gives its routes and whatever it checks.
 */
export function testAppOptions(options: Partial<ServiceAppOptions> & Pick<ServiceAppOptions, 'routes'>): ServiceAppOptions {
  return {
    logger: pino({ level: 'silent' }),
    openapi: { title: 'Items', version: '1.0.0' },
    errorFormat: (e: ErrorDescription) => ({ error: { code: e.code } }),
    isReady: async () => true,
    lifecycle: createLifecycle(),
    ...options,
  };
}
