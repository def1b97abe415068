import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, xmlList, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { z } from '@lib/validation';
import { commonErrors, limitError, noContent, notFoundError } from '../http/errors.outputs';
import { pageOrNoContent } from '../http/page-reply';
import { CONTACT_PAGE } from './contact.paging';
import { isEmail } from './contact-rules';
import { contactListOutput, contactOutput } from './contact.outputs';
import { contactViews, shownContactView } from './contact.presenter';
import {
  addPropertyInput,
  changeOwnerForm,
  companiesForm,
  companyParams,
  contactInput,
  editPropertiesInput,
  editTagsInput,
  emailParams,
  emailQuery,
  idParams,
  leadScoreInput,
  phoneParams,
  listQuery,
  scoreForm,
  searchEmailsForm,
  searchQuery,
  sortedListQuery,
  starInput,
  tagsForm,
} from './contact.schemas';
import type { ContactService, ShownContact, TagChange } from './contact.service';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['contacts'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
/** Routes that take no input: no 400 to document (the 401 is the scheme's, as on every basic route). */
const noInput = defineRoute.group({ auth: 'basic', tags: TAGS });
const one = { description: 'The contact', schema: xmlRoot(contactOutput, XML_NAMES.contact.root) };
const page = { description: 'A page of contacts: count on the first, cursor on the last when more follow', schema: contactListOutput };

function assertEmail(email: string, field: string): void {
  if (!isEmail(email)) throw validationFailed([{ field, message: `${email} is not a valid email address` }]);
}

const oneOrNoContent = (found: ShownContact | null) => (found ? { status: 200 as const, body: shownContactView(found) } : { status: 204 as const });
const TAG_VERB: Record<TagChange, { name: string; done: string; summary: string }> = {
  add: { name: 'add', done: 'added', summary: 'Add tags to' },
  remove: { name: 'delete', done: 'removed', summary: 'Remove tags from' },
};

/** C7/C8 and edit/delete tags: one row of each per change, the same handler but for the change. */
function tagRoutes(contacts: ContactService, change: TagChange): AnyRoute[] {
  const verb = TAG_VERB[change];
  return [
    route.post(`/dev/api/contacts/email/tags/${verb.name}`, {
      summary: `${change === 'add' ? 'C7' : 'C8'}: ${verb.summary.toLowerCase()} the contact with this email (form call)`,
      request: { body: tagsForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 204: { description: `Tags ${verb.done}` } },
      handler: async ({ body, store }) => {
        await contacts.changeTagsByEmail(store, body.email, body.tags, change);
        return { status: 204 };
      },
    }),
    route.put(`/dev/api/contacts/${change === 'add' ? 'edit' : 'delete'}/tags`, {
      summary: `${verb.summary} the contact with this id`,
      request: { body: editTagsInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.changeTags(store, body.id, body.tags, change)) }),
    }),
  ];
}

export function contactRoutes(contacts: ContactService): AnyRoute[] {
  return [
    route.get('/dev/api/contacts', {
      summary: 'C1: contacts and companies of the account, oldest first (or by global_sort_key), paged',
      description: 'XML unless Accept asks for JSON (convention 3). 204 when the account has no contacts.',
      defaultMedia: 'xml',
      request: { query: sortedListQuery },
      responses: { 200: page, 204: noContent },
      handler: async ({ query, store, media }) => pageOrNoContent(media, await contacts.list(store, query), CONTACT_PAGE),
    }),
    noInput.get('/dev/api/contacts/list/count', {
      summary: 'Number of contacts and companies of the account',
      responses: { 200: { description: 'The count', schema: xmlRoot(z.strictObject({ count: z.number().int() }), XML_NAMES.result.root) } },
      handler: async ({ store }) => ({ status: 200, body: { count: await contacts.count(store) } }),
    }),
    route.get('/dev/api/contacts/search/email/:email', {
      summary: 'The contact with this email',
      request: { params: emailParams },
      responses: { 200: one, 204: { description: 'No contact has this email' } },
      handler: async ({ params, store }) => {
        assertEmail(params.email, 'email');
        return oneOrNoContent(await contacts.findByEmail(store, params.email));
      },
    }),
    route.get('/dev/api/contacts/search/phonenumber/:phone', {
      summary: 'The contact with a phone property of exactly this value (the oldest when several have it)',
      request: { params: phoneParams },
      responses: { 200: one, 204: { description: 'No contact has this phone number' } },
      handler: async ({ params, store }) => oneOrNoContent(await contacts.findByPhone(store, params.phone)),
    }),
    route.post('/dev/api/contacts/search/email', {
      summary: 'C6: contacts with any of the emails (form call)',
      request: { body: searchEmailsForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.emails },
      responses: {
        200: {
          description: 'The matching contacts, or {} when none match',
          schema: xmlRoot(z.union([xmlList(contactOutput, XML_NAMES.contact.list), z.strictObject({})]), XML_NAMES.contact.list.root),
        }
      },
      handler: async ({ body, store }) => {
        body.email_ids.forEach((email, i) => assertEmail(email, `email_ids[${i}]`));
        const found = await contacts.findByEmails(store, body.email_ids);
        return { status: 200, body: found.contacts.length ? contactViews(found.contacts, found.owners) : {} };
      },
    }),
    ...tagRoutes(contacts, 'add'),
    ...tagRoutes(contacts, 'remove'),
    route.post('/dev/api/contacts/add-score', {
      summary: 'C9: change the lead score of the contact with this email (form call)',
      request: { body: scoreForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.addScore(store, body.email, body.score)) }),
    }),
    route.post('/dev/api/contacts/add/property', {
      summary: 'C11: add a property, or replace the one with the same name and subtype',
      request: { query: emailQuery, body: xmlRoot(addPropertyInput, 'contactField'), bodyLimit: BODY_LIMITS.properties },
      responses: { 200: one },
      handler: async ({ query, body, store }) => ({ status: 200, body: shownContactView(await contacts.upsertPropertyByEmail(store, query.email, body)) }),
    }),
    route.post('/dev/api/contacts/change-owner', {
      summary: 'C12: give the contact to another user of the account (form call)',
      request: { body: changeOwnerForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.changeOwner(store, body.contact_id, body.owner_email)) }),
    }),
    route.put('/dev/api/contacts/edit-properties', {
      summary: 'Add or replace only the sent properties',
      request: { body: editPropertiesInput, bodyLimit: BODY_LIMITS.properties },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.upsertProperties(store, body.id, body.properties)) }),
    }),
    route.put('/dev/api/contacts/edit/lead-score', {
      summary: 'Set the lead score',
      request: { body: leadScoreInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.setNumber(store, body.id, 'lead_score', body.lead_score)) }),
    }),
    route.put('/dev/api/contacts/edit/add-star', {
      summary: 'Set the star value (0–5)',
      request: { body: starInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownContactView(await contacts.setNumber(store, body.id, 'star_value', body.star_value)) }),
    }),
    route.post('/dev/api/contacts/companies/list', {
      summary: 'Companies of the account, oldest first (or by global_sort_key), paged',
      request: { body: companiesForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: page, 204: noContent },
      handler: async ({ body, store, media }) => pageOrNoContent(media, await contacts.list(store, body, { type: 'COMPANY' }), CONTACT_PAGE),
    }),
    route.get('/dev/api/contacts/related/:companyId', {
      summary: 'Persons who work for the company, oldest first, paged',
      request: { params: companyParams, query: listQuery },
      responses: { 200: page, 204: noContent },
      handler: async ({ params, query, store, media }) => pageOrNoContent(media, await contacts.list(store, query, { type: 'PERSON', contact_company_id: params.companyId }), CONTACT_PAGE),
    }),
    route.get('/dev/api/search', {
      summary: 'Contacts whose name, email, company or title starts with q (case-sensitive), paged',
      request: { query: searchQuery },
      responses: { 200: page, 204: noContent },
      handler: async ({ query: { q, type, ...params }, store, media }) => pageOrNoContent(media, await contacts.search(store, q, type, params), CONTACT_PAGE),
    }),
    route.get('/dev/api/contacts/:id', {
      summary: 'C2: one contact',
      request: { params: idParams },
      responses: { 200: one, 204: { description: 'No contact with that id' } },
      handler: async ({ params, store }) => oneOrNoContent(await contacts.get(store, params.id)),
    }),
    route.post('/dev/api/contacts', {
      summary: 'C3: create a contact or company',
      request: { body: xmlRoot(contactInput, XML_NAMES.contact.root), bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 406: limitError },
      handler: async ({ body, user, store }) => {
        if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT to update' }]);
        return { status: 200, body: shownContactView(await contacts.create(store, user, body)) };
      },
    }),
    route.put('/dev/api/contacts', {
      summary: 'C4: update the contact with the id in the body (without an id, create one)',
      request: { body: xmlRoot(contactInput, XML_NAMES.contact.root), bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError, 406: limitError },
      handler: async ({ body, user, store }) => ({ status: 200, body: shownContactView(await contacts.save(store, user, body)) }),
    }),
    route.delete('/dev/api/contacts/:id', {
      summary: 'C5: delete a contact',
      request: { params: idParams },
      responses: { 204: { description: 'Deleted (or there was no such contact)' } },
      handler: async ({ params, store }) => {
        await contacts.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
