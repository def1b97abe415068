import { expectDocsPageRenders } from '@lib/testing';
import { setupCrmApp } from './setup-app';

const ctx = setupCrmApp();

it('GET /docs renders every documented operation in a browser and loads nothing from another origin', () => expectDocsPageRenders(ctx.app, ['GET /dev/api/contacts', 'POST /dev/api/opportunity']), 120_000);
