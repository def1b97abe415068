import { validationFailed } from '@lib/errors';
import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { wholeListQuery } from '../paging';
import { DOCUMENT_PAGE } from './document.paging';
import { documentListOutput, documentOne } from './document.outputs';
import { contactDocumentsParams, documentInput, documentParams, documentUpdate } from './document.schemas';
import type { DocumentService } from './document.service';
import { documentView } from './document.view';

const TAGS = ['documents'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const PATH = '/dev/api/documents';
const one = { description: 'The document', schema: documentOne };

export function documentRoutes(documents: DocumentService): AnyRoute[] {
  return [
    route.get(`${PATH}/contact/:contactId/docs`, {
      summary: 'Documents related to the contact, oldest first (the original\'s 9.1)',
      description: 'An empty list when none (also for an id no contact of the account has). `count` on the first item, `cursor` on the last when more follow.',
      request: { params: contactDocumentsParams, query: wholeListQuery },
      responses: { 200: { description: 'Documents, oldest first; [] when none', schema: documentListOutput } },
      handler: async ({ params, query, store, media }) => pageReply(media, await documents.ofContact(store, params.contactId, query), DOCUMENT_PAGE),
    }),
    route.get(`${PATH}/:id`, {
      summary: 'One document (not in the original\'s README)',
      request: { params: documentParams },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ params, store }) => ({ status: 200, body: documentView(await documents.get(store, params.id)) }),
    }),
    route.post(PATH, {
      summary: 'Create a document: a link to a file with its metadata (the original\'s 9.2)',
      description: '`url` required (http or https); related `contact_ids` and `deal_ids` must be of the account. The file itself is not uploaded or fetched.',
      request: { body: documentInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body: { id, ...input }, user, store }) => {
        if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/documents to update' }]);
        return { status: 200, body: documentView(await documents.create(store, user._id, input)) };
      },
    }),
    route.put(PATH, {
      summary: 'Replace the document with the id in the body (the original\'s 9.3)',
      description: '`id` and `url` required; the whole document: fields not sent take their defaults (relations none), the owner is kept unless `owner_id` is sent.',
      request: { body: documentUpdate, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body: { id, ...input }, store }) => ({ status: 200, body: documentView(await documents.replace(store, id, input)) }),
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'Delete a document (its link and metadata; the file is not touched)',
      request: { params: documentParams },
      responses: { 204: { description: 'Deleted (also when the account had no such document)' } },
      handler: async ({ params, store }) => {
        await documents.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
