import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { isEmail } from '../contacts/contact-rules';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { DEAL_PAGE } from './deal.paging';
import { byMilestoneOutput, dealOutput, dealPageOutput, deletedOutput } from './deal.outputs';
import { shownDealView } from './deal.presenter';
import { basedQuery, bulkInput, byPipelineQuery, contactDealsParams, dealInput, dealContactRemoval, dealParams, dealPatch, emailParams, listQuery, wholeListQuery } from './deal.schemas';
import type { DealService } from './deal.service';
import { milestoneReply } from './milestone-view';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['deals'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
/** Routes that take no input: no 400 to document (the 401 is the scheme's, as on every basic route). */
const noInput = defineRoute.group({ auth: 'basic', tags: TAGS });
const BASE = '/dev/api/opportunity';
const one = { description: 'The deal', schema: xmlRoot(dealOutput, XML_NAMES.deal.root) };
const page = { description: 'A page of deals, oldest first: count on the first, cursor on the last when more follow', schema: dealPageOutput };
const byMilestone = {
  description: 'Every milestone of the track in track order with its deals, oldest first. XML: <milestones><milestone><name>Open</name><opportunity>…</opportunity>…</milestone>…',
  schema: byMilestoneOutput,
};
const deleted = { description: 'The ids that were deleted (ids of no deal of the account are ignored)', schema: xmlRoot(deletedOutput, XML_NAMES.result.root) };

function assertNoId(id: number | undefined) {
  if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating a deal for a contact' }]);
}

export function dealRoutes(deals: DealService): AnyRoute[] {
  return [
    route.get(BASE, {
      summary: 'D1: deals of the account, oldest first (or by global_sort_key), paged',
      request: { query: listQuery },
      responses: { 200: page },
      handler: async ({ query, store, media }) => pageReply(media, await deals.list(store, query), DEAL_PAGE),
    }),
    noInput.get(`${BASE}/byMilestone`, {
      summary: 'D8: deals of the Default track by milestone',
      heavy: true,
      responses: { 200: byMilestone },
      handler: async ({ store, media }) => milestoneReply(media, await deals.byDefaultMilestone(store)),
    }),
    route.get(`${BASE}/byPipeline/based`, {
      summary: 'D9: deals of a track by milestone (pipeline_id 0: the Default track)',
      heavy: true,
      request: { query: byPipelineQuery },
      responses: { 200: byMilestone },
      handler: async ({ query, store, media }) => milestoneReply(media, await deals.byMilestone(store, query.pipeline_id)),
    }),
    route.get(`${BASE}/based`, {
      summary: 'D10: deals of a track (pipeline_id 0: the Default track, 1: all tracks), oldest first (or by global_sort_key), paged',
      request: { query: basedQuery },
      responses: { 200: page },
      handler: async ({ query: { pipeline_id, ...params }, store, media }) => pageReply(media, await deals.ofTrack(store, pipeline_id, params), DEAL_PAGE),
    }),
    route.get(`${BASE}/my/deals`, {
      summary: 'D12: deals owned by the caller, oldest first',
      responses: { 200: page },
      request: { query: wholeListQuery },
      handler: async ({ query, user, store, media }) => pageReply(media, await deals.ofOwner(store, user._id, query), DEAL_PAGE),
    }),
    route.get('/dev/api/contacts/:id/deals', {
      summary: 'D11: deals related to the contact, oldest first',
      description: 'An empty list for a contact without deals and for an id that names no contact of the account.',
      request: { params: contactDealsParams, query: wholeListQuery },
      responses: { 200: page },
      handler: async ({ params, query, store, media }) => pageReply(media, await deals.ofContact(store, params.id, query), DEAL_PAGE),
    }),
    route.post(`${BASE}/bulk`, {
      summary: 'D7: delete every listed deal of the account',
      description: 'JSON `{"ids": [1, 2]}` or form `ids=[1,2]`. Ids of no deal of the account are ignored.',
      request: { body: bulkInput, bodyTypes: ['json', 'form'], bodyLimit: BODY_LIMITS.ids },
      responses: { 200: deleted },
      handler: async ({ body, store }) => ({ status: 200, body: { deleted: await deals.removeMany(store, body.ids) } }),
    }),
    route.put(`${BASE}/partial-update`, {
      summary: 'Change only the sent fields of the deal with the id in the body',
      request: { body: dealPatch, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownDealView(await deals.patch(store, body)) }),
    }),
    route.put(`${BASE}/partial-update/delete-contact`, {
      summary: 'Take contacts out of the deal with the id in the body (the original\'s "Remove contacts of a deal")',
      description: 'Body `{"id": …, "contact_ids": [...]}` (a whole deal JSON is accepted; its other fields are not changed). Ids the deal does not relate are skipped.',
      request: { body: dealContactRemoval, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownDealView(await deals.removeContacts(store, body.id, body.contact_ids)) }),
    }),
    route.post(`${BASE}/email/:email`, {
      summary: 'D5: create a deal related to the contact with this email',
      description: '400 and nothing created when no contact of the account has the email.',
      request: { params: emailParams, body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one },
      handler: async ({ params, body, store }) => {
        assertNoId(body.id);
        if (!isEmail(params.email)) throw validationFailed([{ field: 'email', message: `${params.email} is not a valid email address` }]);
        return { status: 200, body: shownDealView(await deals.createForEmail(store, params.email, body)) };
      },
    }),
    route.get(`${BASE}/:id`, {
      summary: 'D2: one deal',
      request: { params: dealParams },
      responses: { 200: one, 204: { description: 'No deal with that id' } },
      handler: async ({ params, store }) => {
        const found = await deals.get(store, params.id);
        return found ? { status: 200, body: shownDealView(found) } : { status: 204 };
      },
    }),
    route.post(BASE, {
      summary: 'D3: create a deal (with the id of a deal of the account: replace that deal, as D4)',
      request: { body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownDealView(await deals.save(store, body)) }),
    }),
    route.put(BASE, {
      summary: 'D4: replace the deal with the id in the body',
      description: 'The body is the whole deal: the required fields must be sent; optional fields not sent take their defaults. Use partial-update to change some fields only.',
      request: { body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => {
        if (body.id === undefined) throw validationFailed([{ field: 'id', message: 'is required (POST creates a deal)' }]);
        return { status: 200, body: shownDealView(await deals.replace(store, body.id, body)) };
      },
    }),
    route.delete(`${BASE}/:id`, {
      summary: 'D6: delete a deal',
      request: { params: dealParams },
      responses: { 200: deleted },
      handler: async ({ params, store }) => ({ status: 200, body: { deleted: await deals.remove(store, params.id) } }),
    }),
  ];
}
