import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, xmlList, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { z } from '@lib/validation';
import type { Request, Response } from 'express';
import type { AccountService } from '../accounts/account.service';
import { userView } from '../accounts/user.view';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { commonErrors, limitError, noContent, notFoundError } from '../http/errors.outputs';
import type { Page } from '../paging';
import { reply, sendNoContent } from '../http/reply';
import { sendPage as sendListPage } from '../http/send-page';
import { CONTACT_READING } from './contact.paging';
import { isEmail } from './contact-rules';
import type { ContactDoc } from './contact.model';
import { contactListOutput, contactOutput } from './contact.outputs';
import type { ContactPresenter } from './contact.presenter';
import { contactView } from './contact.view';
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
import type { ContactService } from './contact.service';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['contacts'];
const one = { description: 'The contact', schema: xmlRoot(contactOutput, XML_NAMES.contact.root) };
const page = { description: 'A page of contacts: count on the first, cursor on the last when more follow', schema: xmlList(contactListOutput.element, XML_NAMES.contacts) };
const LIST_XML = XML_NAMES.contacts;

function assertEmail(email: string, field: string): void {
  if (!isEmail(email)) throw validationFailed([{ field, message: `${email} is not a valid email address` }]);
}

export function contactRoutes(contacts: ContactService, accounts: AccountService, present: ContactPresenter): AnyRoute[] {
  async function sendOne(req: Request, res: Response, doc: ContactDoc) {
    reply(req, res, await present.one(doc), XML_NAMES.contact);
  }

  /** A contact just created by the caller: its owner is the caller, already in hand from authentication (no owner lookup). */
  function sendCreated(req: Request, res: Response, doc: ContactDoc, owner: DomainUserDoc) {
    reply(req, res, contactView(doc, userView(owner)), XML_NAMES.contact);
  }

  function sendPage(req: Request, res: Response, result: Page<ContactDoc>, fallback: 'json' | 'xml' = 'json') {
    return sendListPage(req, res, result, { reading: CONTACT_READING, present: present.many, xml: { ...LIST_XML, fallback }, noContentWhenEmpty: true });
  }

  return [
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts',
      auth: 'basic',
      summary: 'C1: contacts and companies of the account, oldest first (or by global_sort_key), paged',
      description: 'XML unless Accept asks for JSON (convention 3). 204 when the account has no contacts.',
      tags: TAGS,
      request: { query: sortedListQuery },
      responses: { 200: page, 204: noContent, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendPage(req, res, await contacts.list(user.account, query), 'xml'),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/list/count',
      auth: 'basic',
      summary: 'Number of contacts and companies of the account',
      tags: TAGS,
      responses: { 200: { description: 'The count', schema: z.object({ count: z.number().int() }) }, 401: commonErrors[401] },
      handler: async ({ user, req }, res) => reply(req, res, { count: await contacts.count(user.account) }, XML_NAMES.result),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/search/email/:email',
      auth: 'basic',
      summary: 'The contact with this email',
      tags: TAGS,
      request: { params: emailParams },
      responses: { 200: one, 204: { description: 'No contact has this email' }, ...commonErrors },
      handler: async ({ params, user, req }, res) => {
        assertEmail(params.email, 'email');
        const doc = await contacts.findByEmail(user.account, params.email);
        return doc ? sendOne(req, res, doc) : sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/search/phonenumber/:phone',
      auth: 'basic',
      summary: 'The contact with a phone property of exactly this value (the oldest when several have it)',
      tags: TAGS,
      request: { params: phoneParams },
      responses: { 200: one, 204: { description: 'No contact has this phone number' }, ...commonErrors },
      handler: async ({ params, user, req }, res) => {
        const doc = await contacts.findByPhone(user.account, params.phone);
        return doc ? sendOne(req, res, doc) : sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/search/email',
      auth: 'basic',
      summary: 'C6: contacts with any of the emails (form call)',
      tags: TAGS,
      request: { body: searchEmailsForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.emails },
      responses: { 200: { description: 'The matching contacts, or {} when none match', schema: z.union([z.array(contactOutput), z.object({})]) }, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        body.email_ids.forEach((email, i) => assertEmail(email, `email_ids[${i}]`));
        const docs = await contacts.findByEmails(user.account, body.email_ids);
        if (docs.length === 0) return reply(req, res, {}, XML_NAMES.contacts);
        reply(req, res, await present.many(docs), LIST_XML);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/email/tags/add',
      auth: 'basic',
      summary: 'C7: add tags to the contact with this email (form call)',
      tags: TAGS,
      request: { body: tagsForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 204: { description: 'Tags added' }, ...commonErrors },
      handler: async ({ body, user }, res) => {
        await contacts.addTags(await contacts.requireByEmail(user.account, body.email), body.tags);
        sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/email/tags/delete',
      auth: 'basic',
      summary: 'C8: remove tags from the contact with this email (form call)',
      tags: TAGS,
      request: { body: tagsForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 204: { description: 'Tags removed' }, ...commonErrors },
      handler: async ({ body, user }, res) => {
        await contacts.removeTags(await contacts.requireByEmail(user.account, body.email), body.tags);
        sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/add-score',
      auth: 'basic',
      summary: 'C9: change the lead score of the contact with this email (form call)',
      tags: TAGS,
      request: { body: scoreForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        const doc = await contacts.requireByEmail(user.account, body.email);
        await contacts.addScore(doc, body.score);
        await sendOne(req, res, await contacts.reload(doc.account, doc._id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/add/property',
      auth: 'basic',
      summary: 'C11: add a property, or replace the one with the same name and subtype',
      tags: TAGS,
      request: { query: emailQuery, body: xmlRoot(addPropertyInput, 'contactField'), bodyLimit: BODY_LIMITS.properties },
      responses: { 200: one, ...commonErrors },
      handler: async ({ query, body, user, req }, res) => {
        const doc = await contacts.requireByEmail(user.account, query.email);
        await sendOne(req, res, await contacts.upsertProperties(doc.account, doc._id, [body]));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/change-owner',
      auth: 'basic',
      summary: 'C12: give the contact to another user of the account (form call)',
      tags: TAGS,
      request: { body: changeOwnerForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        const owner = await accounts.findUser(user.account, body.owner_email);
        if (!owner) throw validationFailed([{ field: 'owner_email', message: `User with email ${body.owner_email} does not exist` }]);
        await sendOne(req, res, await contacts.changeOwner(user.account, body.contact_id, owner));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts/edit-properties',
      auth: 'basic',
      summary: 'Add or replace only the sent properties',
      tags: TAGS,
      request: { body: editPropertiesInput, bodyLimit: BODY_LIMITS.properties },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await contacts.upsertProperties(user.account, body.id, body.properties)),
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts/edit/tags',
      auth: 'basic',
      summary: 'Add tags to the contact with this id',
      tags: TAGS,
      request: { body: editTagsInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        await contacts.addTags(await contacts.reload(user.account, body.id), body.tags);
        await sendOne(req, res, await contacts.reload(user.account, body.id));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts/delete/tags',
      auth: 'basic',
      summary: 'Remove tags from the contact with this id',
      tags: TAGS,
      request: { body: editTagsInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        await contacts.removeTags(await contacts.reload(user.account, body.id), body.tags);
        await sendOne(req, res, await contacts.reload(user.account, body.id));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts/edit/lead-score',
      auth: 'basic',
      summary: 'Set the lead score',
      tags: TAGS,
      request: { body: leadScoreInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await contacts.setNumber(user.account, body.id, 'lead_score', body.lead_score)),
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts/edit/add-star',
      auth: 'basic',
      summary: 'Set the star value (0–5)',
      tags: TAGS,
      request: { body: starInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendOne(req, res, await contacts.setNumber(user.account, body.id, 'star_value', body.star_value)),
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts/companies/list',
      auth: 'basic',
      summary: 'Companies of the account, oldest first (or by global_sort_key), paged',
      tags: TAGS,
      request: { body: companiesForm, bodyTypes: ['form', 'json'], bodyLimit: BODY_LIMITS.fields },
      responses: { 200: page, 204: noContent, ...commonErrors },
      handler: async ({ body, user, req }, res) => sendPage(req, res, await contacts.list(user.account, body, { type: 'COMPANY' })),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/related/:companyId',
      auth: 'basic',
      summary: 'Persons who work for the company, oldest first, paged',
      tags: TAGS,
      request: { params: companyParams, query: listQuery },
      responses: { 200: page, 204: noContent, ...commonErrors },
      handler: async ({ params, query, user, req }, res) =>
        sendPage(req, res, await contacts.list(user.account, query, { type: 'PERSON', contact_company_id: params.companyId })),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/search',
      auth: 'basic',
      summary: 'Contacts whose name, email, company or title starts with q (case-sensitive), paged',
      tags: TAGS,
      request: { query: searchQuery },
      responses: { 200: page, 204: noContent, ...commonErrors },
      handler: async ({ query, user, req }, res) => {
        const { q, type, ...params } = query;
        sendPage(req, res, await contacts.search(user.account, q, type, params));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/:id',
      auth: 'basic',
      summary: 'C2: one contact',
      tags: TAGS,
      request: { params: idParams },
      responses: { 200: one, 204: { description: 'No contact with that id' }, ...commonErrors },
      handler: async ({ params, user, req }, res) => {
        const doc = await contacts.get(user.account, params.id);
        return doc ? sendOne(req, res, doc) : sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/contacts',
      auth: 'basic',
      summary: 'C3: create a contact or company',
      tags: TAGS,
      request: { body: xmlRoot(contactInput, XML_NAMES.contact.root), bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, ...commonErrors, 406: limitError },
      handler: async ({ body, user, req }, res) => {
        if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT to update' }]);
        sendCreated(req, res, await contacts.create(user, body), user);
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/contacts',
      auth: 'basic',
      summary: 'C4: update the contact with the id in the body (without an id, create one)',
      tags: TAGS,
      request: { body: xmlRoot(contactInput, XML_NAMES.contact.root), bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError, ...commonErrors, 406: limitError },
      handler: async ({ body, user, req }, res) => {
        if (body.id === undefined) return sendCreated(req, res, await contacts.create(user, body), user);
        await sendOne(req, res, await contacts.update(user.account, body.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/dev/api/contacts/:id',
      auth: 'basic',
      summary: 'C5: delete a contact',
      tags: TAGS,
      request: { params: idParams },
      responses: { 204: { description: 'Deleted (or there was no such contact)' }, ...commonErrors },
      handler: async ({ params, user }, res) => {
        await contacts.remove(user.account, params.id);
        sendNoContent(res);
      },
    }),
  ];
}
