import { unexpectedProblems } from '@lib/routing/testing';
import request from 'supertest';
import { setupUsersApp } from './setup-app';

const ctx = setupUsersApp();

it('serves an OpenAPI document that redocly lint (recommended rules) passes without an error or a warning', async () => {
  const res = await request(ctx.app).get('/openapi.json').expect(200);
  expect(Object.keys(res.body.components.schemas).sort()).toEqual(['Error', 'User']);
  expect(unexpectedProblems(res.body)).toEqual([]);
});
