import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { negotiate, sendText } from '@lib/http';
import { xmlRoot, xmlList, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import type { Request, Response } from 'express';
import { isEmail } from '../contacts/contact-rules';
import type { ContactService } from '../contacts/contact.service';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import type { Page } from '../paging';
import { reply, sendNoContent } from '../http/reply';
import { sendPage as sendListPage } from '../http/send-page';
import { DEAL_READING } from './deal.paging';
import type { TrackDoc } from '../tracks/track.model';
import type { TrackService } from '../tracks/track.service';
import type { DealDoc } from './deal.model';
import { byMilestoneOutput, dealOutput, dealPageOutput, deletedOutput } from './deal.outputs';
import type { DealPresenter } from './deal.presenter';
import { basedQuery, bulkInput, byPipelineQuery, contactDealsParams, dealInput, dealParams, dealPatch, emailParams, listQuery, wholeListQuery } from './deal.schemas';
import type { DealService } from './deal.service';
import { MILESTONE_VIEW_MAX_DEALS, milestoneView, TRUNCATED_HEADER } from './milestone-view';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['deals'];
const BASE = '/dev/api/opportunity';
const LIST_XML = XML_NAMES.deals;
const one = { description: 'The deal', schema: xmlRoot(dealOutput, XML_NAMES.deal.root) };
const page = { description: 'A page of deals, oldest first: count on the first, cursor on the last when more follow', schema: xmlList(dealPageOutput.element, LIST_XML) };
const byMilestone = {
  description: 'Every milestone of the track in track order with its deals, oldest first. XML: <milestones><milestone><name>Open</name><opportunity>…</opportunity>…</milestone>…',
  schema: byMilestoneOutput,
};
const deleted = { description: 'The ids that were deleted (ids of no deal of the account are ignored)', schema: deletedOutput };

export function dealRoutes(deals: DealService, tracks: TrackService, contacts: ContactService, present: DealPresenter): AnyRoute[] {
  async function sendOne(req: Request, res: Response, doc: DealDoc) {
    reply(req, res, await present.one(doc), XML_NAMES.deal);
  }

  function sendPage(req: Request, res: Response, result: Page<DealDoc>) {
    return sendListPage(req, res, result, { reading: DEAL_READING, present: present.many, xml: LIST_XML });
  }

  /** D8/D9: keyed by milestone in track order (XML element names cannot hold every milestone name, so XML lists them). */
  async function sendByMilestone(req: Request, res: Response, track: TrackDoc) {
    const kind = negotiate(req);
    const view = await milestoneView(deals.inTrack(track.account, track._id, MILESTONE_VIEW_MAX_DEALS), present.many, kind, track.milestones);
    if (view.truncated) res.setHeader(TRUNCATED_HEADER, 'true');
    sendText(res, 200, kind, view.text);
  }

  function assertNoId(id: number | undefined) {
    if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating a deal for a contact' }]);
  }

  return [
    defineRoute({
      method: 'get',
      path: BASE,
      auth: 'basic',
      summary: 'D1: deals of the account, oldest first (or by global_sort_key), paged',
      tags: TAGS,
      request: { query: listQuery },
      responses: { 200: page, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendPage(req, res, await deals.list(user.account, query)),
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/byMilestone`,
      auth: 'basic',
      summary: 'D8: deals of the Default track by milestone',
      tags: TAGS,
      heavy: true,
      responses: { 200: byMilestone, 401: commonErrors[401] },
      handler: async ({ user, req }, res) => sendByMilestone(req, res, await tracks.defaultTrack(user.account)),
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/byPipeline/based`,
      auth: 'basic',
      summary: 'D9: deals of a track by milestone (pipeline_id 0: the Default track)',
      tags: TAGS,
      heavy: true,
      request: { query: byPipelineQuery },
      responses: { 200: byMilestone, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendByMilestone(req, res, await tracks.resolve(user.account, query.pipeline_id)),
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/based`,
      auth: 'basic',
      summary: 'D10: deals of a track (pipeline_id 0: the Default track, 1: all tracks), oldest first (or by global_sort_key), paged',
      tags: TAGS,
      request: { query: basedQuery },
      responses: { 200: page, ...commonErrors },
      handler: async ({ query, user, req }, res) => {
        const { pipeline_id, ...params } = query;
        const track = pipeline_id === 1 ? undefined : await tracks.resolve(user.account, pipeline_id);
        sendPage(req, res, await deals.list(user.account, params, track?._id));
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/my/deals`,
      auth: 'basic',
      summary: 'D12: deals owned by the caller, oldest first',
      tags: TAGS,
      responses: { 200: page, ...commonErrors },
      request: { query: wholeListQuery },
      handler: async ({ query, user, req }, res) => sendPage(req, res, await deals.ofOwner(user.account, user._id, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/:id/deals',
      auth: 'basic',
      summary: 'D11: deals related to the contact, oldest first',
      description: 'An empty list for a contact without deals and for an id that names no contact of the account.',
      tags: TAGS,
      request: { params: contactDealsParams, query: wholeListQuery },
      responses: { 200: page, ...commonErrors },
      handler: async ({ params, query, user, req }, res) => sendPage(req, res, await deals.ofContact(user.account, params.id, query)),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/bulk`,
      auth: 'basic',
      summary: 'D7: delete every listed deal of the account',
      description: 'JSON `{"ids": [1, 2]}` or form `ids=[1,2]`. Ids of no deal of the account are ignored.',
      tags: TAGS,
      request: { body: bulkInput, bodyTypes: ['json', 'form'], bodyLimit: BODY_LIMITS.ids },
      responses: { 200: deleted, ...commonErrors },
      handler: async ({ body, user, req }, res) => reply(req, res, { deleted: await deals.removeMany(user.account, body.ids) }, XML_NAMES.result),
    }),
    defineRoute({
      method: 'put',
      path: `${BASE}/partial-update`,
      auth: 'basic',
      summary: 'Change only the sent fields of the deal with the id in the body',
      tags: TAGS,
      request: { body: dealPatch, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await deals.patch(user.account, body)),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/email/:email`,
      auth: 'basic',
      summary: 'D5: create a deal related to the contact with this email',
      description: '400 and nothing created when no contact of the account has the email.',
      tags: TAGS,
      request: { params: emailParams, body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, ...commonErrors },
      handler: async ({ params, body, user, req }, res) => {
        assertNoId(body.id);
        if (!isEmail(params.email)) throw validationFailed([{ field: 'email', message: `${params.email} is not a valid email address` }]);
        const contact = await contacts.requireByEmail(user.account, params.email);
        await sendOne(req, res, await deals.create(user.account, body, [contact._id]));
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/:id`,
      auth: 'basic',
      summary: 'D2: one deal',
      tags: TAGS,
      request: { params: dealParams },
      responses: { 200: one, 204: { description: 'No deal with that id' }, ...commonErrors },
      handler: async ({ params, user, req }, res) => {
        const doc = await deals.get(user.account, params.id);
        return doc ? sendOne(req, res, doc) : sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'post',
      path: BASE,
      auth: 'basic',
      summary: 'D3: create a deal (with the id of a deal of the account: replace that deal, as D4)',
      tags: TAGS,
      request: { body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        const doc = body.id === undefined ? await deals.create(user.account, body) : await deals.replace(user.account, body.id, body);
        await sendOne(req, res, doc);
      },
    }),
    defineRoute({
      method: 'put',
      path: BASE,
      auth: 'basic',
      summary: 'D4: replace the deal with the id in the body',
      description: 'The body is the whole deal: the required fields must be sent; optional fields not sent take their defaults. Use partial-update to change some fields only.',
      tags: TAGS,
      request: { body: dealInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        if (body.id === undefined) throw validationFailed([{ field: 'id', message: 'is required (POST creates a deal)' }]);
        await sendOne(req, res, await deals.replace(user.account, body.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${BASE}/:id`,
      auth: 'basic',
      summary: 'D6: delete a deal',
      tags: TAGS,
      request: { params: dealParams },
      responses: { 200: deleted, ...commonErrors },
      handler: async ({ params, user, req }, res) => reply(req, res, { deleted: await deals.remove(user.account, params.id) }, XML_NAMES.result),
    }),
  ];
}
