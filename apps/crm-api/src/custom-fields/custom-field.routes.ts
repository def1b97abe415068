import { validationFailed } from '@lib/errors';
import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { customFieldList, customFieldOne } from './custom-field.outputs';
import { customFieldInput, customFieldParams, customFieldUpdate, positionsInput, scopeQuery } from './custom-field.schemas';
import type { CustomFieldService } from './custom-field.service';
import { customFieldView } from './custom-field.view';

const TAGS = ['custom fields'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const noInput = defineRoute.group({ auth: 'basic', tags: TAGS });
const PATH = '/dev/api/custom-fields';
const one = { description: 'The definition', schema: customFieldOne };
const list = (description: string) => ({ description, schema: customFieldList });

export function customFieldRoutes(fields: CustomFieldService): AnyRoute[] {
  return [
    route.get(`${PATH}/scope/position`, {
      summary: 'The custom fields of a scope in position order, FORMULA fields included (the Node client\'s getContactCustomField)',
      // unpaged, as the original: 200 definitions at their bounds are at most 6.1 MB in XML
      heavy: true,
      request: { query: scopeQuery },
      responses: { 200: list('Definitions: position 0 first (in creation order), then by position; [] when none') },
      handler: async ({ query, store }) => ({ status: 200, body: (await fields.list(store, query.scope, { withFormulas: true })).map(customFieldView) }),
    }),
    route.get(`${PATH}/scope`, {
      summary: 'The custom fields of a scope in position order, without FORMULA fields',
      // unpaged, as the original: 200 definitions at their bounds are at most 6.1 MB in XML
      heavy: true,
      request: { query: scopeQuery },
      responses: { 200: list('Definitions in position order; [] when none') },
      handler: async ({ query, store }) => ({ status: 200, body: (await fields.list(store, query.scope, { withFormulas: false })).map(customFieldView) }),
    }),
    noInput.get(PATH, {
      summary: 'Every custom field of the account, without FORMULA fields',
      heavy: true,
      responses: { 200: list('Definitions of every scope in position order; [] when none'), 401: commonErrors[401] },
      handler: async ({ store }) => ({ status: 200, body: (await fields.list(store, undefined, { withFormulas: false })).map(customFieldView) }),
    }),
    route.get(`${PATH}/:id`, {
      summary: 'One custom field (not in the original, which read them only by scope)',
      request: { params: customFieldParams },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ params, store }) => ({ status: 200, body: customFieldView(await fields.get(store, params.id)) }),
    }),
    route.post(PATH, {
      summary: 'Create a custom field (the Node client\'s createCustomField)',
      description:
        '`field_label` and `field_type` required; a LIST needs its options in `field_data`, separated by `;`. A label is unique in its scope ' +
        '(any letter case; PERSON and CONTACT are one scope) and has one type in all scopes. Contacts, companies and deals are then checked against it.',
      request: { body: customFieldInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body: { id, ...input }, store }) => {
        if (id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/custom-fields to update' }]);
        return { status: 200, body: customFieldView(await fields.create(store, input)) };
      },
    }),
    route.put(PATH, {
      summary: 'Replace the custom field with the id in the body (the Node client\'s updateCustomField)',
      description: 'The whole definition, as in the original: fields not sent take their defaults. Values records hold already stay as they are.',
      request: { body: customFieldUpdate, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body: { id, ...input }, store }) => ({ status: 200, body: customFieldView(await fields.replace(store, id, input)) }),
    }),
    route.post(`${PATH}/positions`, {
      summary: 'Set the positions of custom fields: a JSON array of {id, position}',
      request: { body: positionsInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 204: { description: 'Positions set' } },
      handler: async ({ body, store }) => {
        await fields.setPositions(store, body);
        return { status: 204 };
      },
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'Delete a custom field; the values records hold under its label stay',
      request: { params: customFieldParams },
      responses: { 204: { description: 'Deleted (also when the account had no such field, as in the original)' } },
      handler: async ({ params, store }) => {
        await fields.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
