import { expectDocsPageRenders } from '@lib/testing';
import { setupNewsApp } from './setup-app';

const ctx = setupNewsApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', () => expectDocsPageRenders(ctx.app, ['GET /news', 'POST /auth']), 120_000);
