import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { z } from '@lib/validation';
import { contactListOutput } from '../contacts/contact.outputs';
import { CONTACT_PAGE } from '../contacts/contact.paging';
import { dealPageOutput } from '../deals/deal.outputs';
import { DEAL_PAGE } from '../deals/deal.paging';
import { commonErrors, noContent } from '../http/errors.outputs';
import { pageOrNoContent } from '../http/page-reply';
import { DEFAULT_PAGE_SIZE } from '../paging';
import { DEAL_PAGE_DEFAULT } from '../deals/deal.schemas';
import { dealFilterForm, dynamicFilterForm, MAX_FILTER_JSON, MAX_RULES } from './filter.schemas';
import type { FilterService } from './filter.service';

export function filterRoutes(filters: FilterService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/dev/api/filters/filter/dynamic-filter',
      auth: 'basic',
      summary: 'Contacts, companies or deals matching the rules of filterJson, paged (form call)',
      description:
        'Form fields (or JSON) `page_size`, `cursor`, `global_sort_key`, and `filterJson`: JSON text of ' +
        '`{"rules": [{"LHS", "CONDITION", "RHS", "RHS_NEW"?}], "or_rules": [...], "contact_type": "PERSON" | "COMPANY" | "OPPORTUNITY"}`. ' +
        `Every rule of rules holds and, when or_rules has any, at least one of those; at most ${MAX_RULES} rules in each list, ` +
        `filterJson at most ${MAX_FILTER_JSON} characters. The fields and conditions are listed in apps/crm-api/README.md. 204 when nothing matches.`,
      tags: ['filters'],
      request: { body: dynamicFilterForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.record },
      responses: {
        200: { description: 'A page of contacts or companies, or of deals for OPPORTUNITY: count on the first, cursor on the last when more follow', schema: z.union([contactListOutput, dealPageOutput]) },
        204: noContent,
        ...commonErrors,
      },
      handler: async ({ body: { filterJson, page_size: sent, ...params }, store, media }) => {
        if (filterJson.contact_type === 'OPPORTUNITY') return pageOrNoContent(media, await filters.deals(store, filterJson, { ...params, page_size: sent ?? DEAL_PAGE_DEFAULT }), DEAL_PAGE);
        return pageOrNoContent(media, await filters.contacts(store, filterJson, { ...params, page_size: sent ?? DEFAULT_PAGE_SIZE }), CONTACT_PAGE);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/deal/filters/filter/dynamic-filter',
      auth: 'basic',
      summary: 'Deals matching the rules of filterJson, paged (form call): the dynamic filter for deals only',
      description:
        'Not in the original\'s documentation (its deal filters lived under /dev/api/deal/filters): the same form as POST /dev/api/filters/filter/dynamic-filter, ' +
        '`contact_type` OPPORTUNITY when sent, default page size 10. Rules may also name a searchable DEAL custom field (EQUALS, NOTEQUALS). 204 when nothing matches.',
      tags: ['filters'],
      request: { body: dealFilterForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.record },
      responses: { 200: { description: 'A page of deals: count on the first, cursor on the last when more follow', schema: dealPageOutput }, 204: noContent, ...commonErrors },
      handler: async ({ body: { filterJson, ...params }, store, media }) => pageOrNoContent(media, await filters.deals(store, filterJson, params), DEAL_PAGE),
    }),
  ];
}
