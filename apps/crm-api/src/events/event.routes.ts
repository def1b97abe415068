import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { sentContactIds } from '../contacts/contact-links';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { EVENT_PAGE } from './event.paging';
import { eventListOutput, eventOutput } from './event.outputs';
import { contactEventsParams, eventInput, eventParams, rangeQuery, wholeListQuery, type EventInput } from './event.schemas';
import type { EventChanges, EventService } from './event.service';
import { shownEventView } from './event.presenter';

const TAGS = ['events'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const one = { description: 'The event, with its contacts as contact objects', schema: xmlRoot(eventOutput, XML_NAMES.event.root) };
const list = { description: 'Events by start time: count on the first, cursor on the last when more follow (an empty list when none)', schema: eventListOutput };

/** The sent fields of an E3/E4 body, under the names the service uses. */
function changesOf(body: EventInput): EventChanges {
  const { title, start, end, allDay, color, is_event_starred } = body;
  const contacts = sentContactIds(body);
  const sent = { title, start, end, allDay, color, is_event_starred, contacts };
  return Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined));
}

const contactsField = (body: EventInput) => (body.contacts ? 'contacts' : 'contact_ids');

export function eventRoutes(events: EventService): AnyRoute[] {
  return [
    route.get('/dev/api/events', {
      summary: 'E1: events overlapping the range from start to end (epoch seconds, both required), by start time',
      description: 'An event overlaps when it starts at or before `end` and ends at or after `start`.',
      request: { query: rangeQuery },
      responses: { 200: list },
      handler: async ({ query, store, media }) => pageReply(media, await events.overlapping(store, query), EVENT_PAGE),
    }),
    route.get('/dev/api/contacts/:contact_id/events/sort', {
      summary: 'E2: events related to the contact, by start time',
      request: { params: contactEventsParams, query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ params, query, store, media }) => pageReply(media, await events.ofContact(store, params.contact_id, query), EVENT_PAGE),
    }),
    route.post('/dev/api/events', {
      summary: 'E3: create an event (title, start, end required)',
      request: { body: eventInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one },
      handler: async ({ body, store }) => {
        if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/events to update' }]);
        return { status: 200, body: shownEventView(await events.create(store, changesOf(body), contactsField(body))) };
      },
    }),
    route.put('/dev/api/events', {
      summary: 'E4: update the event with the id in the body (without an id, create one)',
      description: 'The sent fields replace the stored ones; fields not sent stay.',
      request: { body: eventInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: shownEventView(await events.save(store, body.id, changesOf(body), contactsField(body))) }),
    }),
    route.delete('/dev/api/events/:id', {
      summary: 'E5: delete an event',
      request: { params: eventParams },
      responses: { 204: { description: 'Deleted (or there was no such event)' } },
      handler: async ({ params, store }) => {
        await events.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
