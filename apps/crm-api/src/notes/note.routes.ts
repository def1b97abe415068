import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, xmlList, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import type { Request, Response } from 'express';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { sentContactIds } from '../contacts/contact-links';
import type { ContactService } from '../contacts/contact.service';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import type { Page } from '../paging';
import { reply, sendNoContent } from '../http/reply';
import { sendPage } from '../http/send-page';
import { NOTE_READING } from './note.paging';
import type { NoteDoc } from './note.model';
import { noteListOutput, noteOutput } from './note.outputs';
import { contactNoteParams, contactNotesParams, dealNotesParams, noteByEmailForm, noteInput, noteUpdateInput, wholeListQuery, type NoteInput, type NoteUpdateInput } from './note.schemas';
import type { NoteFields, NoteService } from './note.service';
import { noteView } from './note.view';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['notes'];
const one = { description: 'The note', schema: xmlRoot(noteOutput, XML_NAMES.note.root) };
const list = { description: 'Notes, oldest first: count on the first, cursor on the last when more follow (an empty list when none)', schema: xmlList(noteListOutput.element, XML_NAMES.notes) };

/** The relation fields a write sent, under the names the service uses. */
function relationsOf(body: Pick<NoteInput, 'contact_ids' | 'contacts' | 'deal_ids' | 'owner_id'>): Partial<NoteFields> {
  const contacts = sentContactIds(body);
  return { ...(contacts && { contacts }), ...(body.deal_ids && { deals: body.deal_ids }), ...(body.owner_id !== undefined && { owner: body.owner_id }) };
}

const contactsField = (body: { contacts?: unknown }) => (body.contacts ? 'contacts' : 'contact_ids');

export function noteRoutes(notes: NoteService, contacts: ContactService): AnyRoute[] {
  const sendOne = (req: Request, res: Response, doc: NoteDoc) => reply(req, res, noteView(doc), XML_NAMES.note);
  const sendList = (req: Request, res: Response, page: Page<NoteDoc>) =>
    sendPage(req, res, page, { reading: NOTE_READING, present: async (docs) => docs.map(noteView), xml: XML_NAMES.notes });

  function create(body: NoteInput, user: DomainUserDoc) {
    if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/notes to update' }]);
    const fields = { subject: body.subject, description: body.description, contacts: [], deals: [], owner: user._id, ...relationsOf(body) };
    return notes.create(user.account, fields, contactsField(body));
  }

  function update(body: NoteUpdateInput, account: number) {
    const { id, subject, description } = body;
    const changes = { ...(subject !== undefined && { subject }), ...(description !== undefined && { description }), ...relationsOf(body) };
    return notes.update(account, id, changes, contactsField(body));
  }

  const requireDeals = (body: { deal_ids?: number[] }) => {
    if (!body.deal_ids?.length) throw validationFailed([{ field: 'deal_ids', message: 'must list at least one deal' }]);
  };

  return [
    defineRoute({
      method: 'post',
      path: '/dev/api/notes',
      auth: 'basic',
      summary: 'N1: create a note, optionally related to contacts (and deals)',
      tags: TAGS,
      request: { body: noteInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await create(body, user)),
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/notes',
      auth: 'basic',
      summary: 'Update the note with the id in the body: the sent fields replace the stored ones',
      tags: TAGS,
      request: { body: noteUpdateInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await update(body, user.account)),
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/email/note/add',
      auth: 'basic',
      summary: 'N2: add a note to the contact with this email (form call)',
      description: 'Form fields `email` and `note` (JSON object text with subject and description). An email no contact has is a 400 and nothing is created.',
      tags: TAGS,
      request: { body: noteByEmailForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.record },
      responses: { 204: { description: 'Note added' }, ...commonErrors },
      handler: async ({ body, user }, res) => {
        const contact = await contacts.requireByEmail(user.account, body.email);
        await notes.create(user.account, { ...body.note, contacts: [contact._id], deals: [], owner: user._id });
        sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/:contact_id/notes',
      auth: 'basic',
      summary: 'N3: notes related to the contact, oldest first',
      tags: TAGS,
      request: { params: contactNotesParams, query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ params, query, user, req }, res) => sendList(req, res, await notes.ofContact(user.account, params.contact_id, query)),
    }),
    defineRoute({
      method: 'delete',
      path: '/dev/api/contacts/:contact_id/notes/:note_id',
      auth: 'basic',
      summary: 'N4: remove the relation between the note and the contact (the note stays)',
      tags: TAGS,
      request: { params: contactNoteParams },
      responses: { 204: { description: 'Not related any more (also when it was not)' }, ...commonErrors },
      handler: async ({ params, user }, res) => {
        await notes.unrelate(user.account, params.contact_id, params.note_id);
        sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/opportunity/:id/notes',
      auth: 'basic',
      summary: 'Notes related to the deal, oldest first',
      tags: TAGS,
      request: { params: dealNotesParams, query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ params, query, user, req }, res) => sendList(req, res, await notes.ofDeal(user.account, params.id, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/opportunity/deals/notes',
      auth: 'basic',
      summary: 'Create a note related to deals (deal_ids required)',
      tags: TAGS,
      request: { body: noteInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        requireDeals(body);
        sendOne(req, res, await create(body, user));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/opportunity/deals/notes',
      auth: 'basic',
      summary: 'Update a note related to deals (Python client README 4.6): as PUT /dev/api/notes, deal_ids required',
      tags: TAGS,
      request: { body: noteUpdateInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        requireDeals(body);
        sendOne(req, res, await update(body, user.account));
      },
    }),
  ];
}
