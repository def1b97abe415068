import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { z } from '@lib/validation';
import { accessTokenField, apiKeyField } from '../auth/access-token';
import { errorResponse } from '../error-schema';
import { SECTORS, searchCompanies } from './companies';

const companiesQuery = z.strictObject({
  q: z.string().trim().min(1, 'must not be empty').max(100).optional().meta({ description: 'Start of a code, or part of a name (any case)', example: 'bank' }),
  sector: z.enum(SECTORS).optional().meta({ description: 'GICS sector' }),
  ...accessTokenField,
  ...apiKeyField,
});

const companyOutput = z.strictObject({ code: z.string(), name: z.string(), sector: z.enum(SECTORS), aliases: z.array(z.string()) });

export function companyRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/companies',
      auth: 'bearer-or-key',
      summary: 'The ASX-listed companies articles are tagged with, searchable',
      tags: ['news'],
      request: { query: companiesQuery },
      responses: {
        200: { description: 'Every matching company, by code', schema: z.strictObject({ total: z.number().int(), data: z.array(companyOutput) }) },
        400: errorResponse('Bad parameter'),
      },
      handler: ({ query }) => {
        const data = searchCompanies(query.q, query.sector).map((c) => ({ code: c.code, name: c.name, sector: c.sector, aliases: c.aliases ?? [] }));
        return { status: 200, body: { total: data.length, data } };
      },
    }),
  ];
}
