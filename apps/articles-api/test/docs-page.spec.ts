import { expectDocsPageRenders } from '@lib/testing';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', () => expectDocsPageRenders(ctx.app, ['GET /articles', 'POST /articles']), 120_000);
