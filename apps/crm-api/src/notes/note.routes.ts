import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { sentContactIds } from '../contacts/contact-links';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import type { AccountStore } from '../store/crm-store';
import { NOTE_PAGE } from './note.paging';
import { noteListOutput, noteOutput } from './note.outputs';
import { contactNoteParams, contactNotesParams, dealNotesParams, noteByEmailForm, noteInput, notesBulkForm, noteUpdateInput, wholeListQuery, type NoteInput, type NoteUpdateInput } from './note.schemas';
import type { NoteFields, NoteService } from './note.service';
import { noteView } from './note.view';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['notes'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const one = { description: 'The note', schema: xmlRoot(noteOutput, XML_NAMES.note.root) };
const list = { description: 'Notes, oldest first: count on the first, cursor on the last when more follow (an empty list when none)', schema: noteListOutput };

/** The relation fields a write sent, under the names the service uses. */
function relationsOf(body: Pick<NoteInput, 'contact_ids' | 'contacts' | 'deal_ids' | 'owner_id'>): Partial<NoteFields> {
  const contacts = sentContactIds(body);
  return { ...(contacts && { contacts }), ...(body.deal_ids && { deals: body.deal_ids }), ...(body.owner_id !== undefined && { owner: body.owner_id }) };
}

const contactsField = (body: { contacts?: unknown }) => (body.contacts ? 'contacts' : 'contact_ids');

export function noteRoutes(notes: NoteService): AnyRoute[] {
  async function create(store: AccountStore, body: NoteInput, user: DomainUserDoc) {
    if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/notes to update' }]);
    const fields = { subject: body.subject, description: body.description, contacts: [], deals: [], owner: user._id, ...relationsOf(body) };
    return { status: 200 as const, body: noteView(await notes.create(store, fields, contactsField(body))) };
  }

  async function update(store: AccountStore, body: NoteUpdateInput) {
    const { id, subject, description } = body;
    const changes = { ...(subject !== undefined && { subject }), ...(description !== undefined && { description }), ...relationsOf(body) };
    return { status: 200 as const, body: noteView(await notes.update(store, id, changes, contactsField(body))) };
  }

  const requireDeals = (body: { deal_ids?: number[] }) => {
    if (!body.deal_ids?.length) throw validationFailed([{ field: 'deal_ids', message: 'must list at least one deal' }]);
  };

  return [
    route.post('/dev/api/notes', {
      summary: 'N1: create a note, optionally related to contacts (and deals)',
      request: { body: noteInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one },
      handler: ({ body, user, store }) => create(store, body, user),
    }),
    route.put('/dev/api/notes', {
      summary: 'Update the note with the id in the body: the sent fields replace the stored ones',
      request: { body: noteUpdateInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError },
      handler: ({ body, store }) => update(store, body),
    }),
    route.post('/dev/api/contacts/email/note/add', {
      summary: 'N2: add a note to the contact with this email (form call)',
      description: 'Form fields `email` and `note` (JSON object text with subject and description). An email no contact has is a 400 and nothing is created.',
      request: { body: noteByEmailForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.record },
      responses: { 204: { description: 'Note added' } },
      handler: async ({ body, user, store }) => {
        await notes.createForEmail(store, body.email, { ...body.note, owner: user._id });
        return { status: 204 };
      },
    }),
    route.post('/dev/api/contacts/notes/bulk', {
      summary: 'Delete notes (the original\'s "delete notes from a deal"): form field ids, JSON-array text of note ids',
      description: `Each listed note of the account is deleted, whatever contacts and deals it relates, and leaves the tasks that relate it; ids of no note of the account are skipped. At most 1000 ids.`,
      request: { body: notesBulkForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.ids },
      responses: { 204: { description: 'Notes removed' } },
      handler: async ({ body, store }) => {
        await notes.removeMany(store, body.ids);
        return { status: 204 };
      },
    }),
    route.get('/dev/api/contacts/:contact_id/notes', {
      summary: 'N3: notes related to the contact, oldest first',
      request: { params: contactNotesParams, query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ params, query, store, media }) => pageReply(media, await notes.ofContact(store, params.contact_id, query), NOTE_PAGE),
    }),
    route.delete('/dev/api/contacts/:contact_id/notes/:note_id', {
      summary: 'N4: remove the relation between the note and the contact (the note stays)',
      request: { params: contactNoteParams },
      responses: { 204: { description: 'Not related any more (also when it was not)' } },
      handler: async ({ params, store }) => {
        await notes.unrelate(store, params.contact_id, params.note_id);
        return { status: 204 };
      },
    }),
    route.get('/dev/api/opportunity/:id/notes', {
      summary: 'Notes related to the deal, oldest first',
      request: { params: dealNotesParams, query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ params, query, store, media }) => pageReply(media, await notes.ofDeal(store, params.id, query), NOTE_PAGE),
    }),
    route.post('/dev/api/opportunity/deals/notes', {
      summary: 'Create a note related to deals (deal_ids required)',
      request: { body: noteInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one },
      handler: ({ body, user, store }) => {
        requireDeals(body);
        return create(store, body, user);
      },
    }),
    route.put('/dev/api/opportunity/deals/notes', {
      summary: 'Update a note related to deals (Python client README 4.6): as PUT /dev/api/notes, deal_ids required',
      request: { body: noteUpdateInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError },
      handler: ({ body, store }) => {
        requireDeals(body);
        return update(store, body);
      },
    }),
  ];
}
