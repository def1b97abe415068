import { expectDocsPageRenders } from '@lib/testing';
import { setupUsersApp } from './setup-app';

const ctx = setupUsersApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', () => expectDocsPageRenders(ctx.app, ['GET /users', 'POST /users']), 120_000);
