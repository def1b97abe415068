import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors } from '../http/errors.outputs';
import { bulkForm, bulkQuery, MAX_BULK_IDS } from './bulk.schemas';
import type { BulkService } from './bulk.service';

export function bulkRoutes(bulk: BulkService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/dev/api/bulk/update',
      auth: 'basic',
      summary: 'One action on many contacts: ADD_TAG, REMOVE_TAG, DELETE or CHANGE_OWNER (form call)',
      description:
        `Query action_type (and owner for CHANGE_OWNER); form fields contact_ids (or ids: JSON array text or [a, b], at most ${MAX_BULK_IDS} ids) and, for the tag actions, data (or tags: the tags, likewise). ` +
        'Ids of no contact of the account are ignored; tags on a company are a 400. Done when the answer comes (204).',
      tags: ['contacts'],
      request: { query: bulkQuery, body: bulkForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.record },
      responses: { 204: { description: 'Done' }, ...commonErrors },
      handler: async ({ query, body, store }) => {
        await bulk.run(store, query.action_type, body, query.owner);
        return { status: 204 };
      },
    }),
  ];
}
