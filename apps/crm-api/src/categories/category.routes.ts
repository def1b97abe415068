import { validationFailed } from '@lib/errors';
import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors } from '../http/errors.outputs';
import { categoryList, categoryOne } from './category.outputs';
import { categoryInput, categoryParams, categoryQuery, categoryUpdate } from './category.schemas';
import type { CategoryService } from './category.service';
import { categoryView } from './category.view';

const TAGS = ['categories'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const PATH = '/dev/api/categories';
const one = { description: 'The category', schema: categoryOne };

export function categoryRoutes(categories: CategoryService): AnyRoute[] {
  return [
    route.get(PATH, {
      summary: 'Categories of a type, by order: deal sources with entity_type=DEAL_SOURCE (the Node client\'s getDealSource)',
      description: 'Without entity_type: every type. DEAL_SOURCE starts with Website, Referral and Ads; DEAL_LOST_REASON with Unqualified, Lost to competitor and Expensive (made on the first read, once).',
      request: { query: categoryQuery },
      responses: { 200: { description: 'Categories by type and order; [] when none', schema: categoryList } },
      handler: async ({ query, store }) => ({ status: 200, body: (await categories.list(store, query.entity_type)).map(categoryView) }),
    }),
    route.post(PATH, {
      summary: 'Create a category (a deal source: entity_type DEAL_SOURCE)',
      description: '`label` (a letter first, then letters, digits, `_`, `-`, spaces) and `entity_type` required; a label is unique in its type, in any letter case.',
      request: { body: categoryInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body: { id, ...input }, store }) => {
        if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/categories to update' }]);
        return { status: 200, body: categoryView(await categories.create(store, input)) };
      },
    }),
    route.put(PATH, {
      summary: 'Relabel (and reorder) the category with the id in the body',
      request: { body: categoryUpdate, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body, store }) => ({ status: 200, body: categoryView(await categories.update(store, body)) }),
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'Delete a category; deals whose source it was get deal_source_id 0',
      request: { params: categoryParams },
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, store }) => {
        await categories.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
