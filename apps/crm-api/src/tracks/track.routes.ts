import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlList, xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { trackOutput } from './track.outputs';
import { trackInput, trackParams, type TrackInput } from './track.schemas';
import type { TrackService } from './track.service';
import { trackView } from './track.view';
import { BODY_LIMITS } from '../http/body-limits';

const TAGS = ['tracks'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
/** Routes that take no input: no 400 to document (the 401 is the scheme's, as on every basic route). */
const noInput = defineRoute.group({ auth: 'basic', tags: TAGS });
const PATH = '/dev/api/milestone/pipelines';
const one = { description: 'The track', schema: xmlRoot(trackOutput, XML_NAMES.track.root) };

/** The milestone list of a K2/K3 body: under `milestone` (the spec's key) or `milestones`. */
function milestonesOf(body: TrackInput): string[] {
  const { milestone, milestones } = body;
  if (milestone && milestones && milestone.join(',') !== milestones.join(',')) {
    throw validationFailed([{ field: 'milestones', message: 'differs from milestone; send one of them' }]);
  }
  const names = milestone ?? milestones;
  if (!names) throw validationFailed([{ field: 'milestone', message: 'is required' }]);
  return names;
}

export function trackRoutes(tracks: TrackService): AnyRoute[] {
  return [
    noInput.get(PATH, {
      summary: 'K1: tracks of the account, the Default track first',
      responses: { 200: { description: 'Every track (never empty: the Default track always exists)', schema: xmlList(trackOutput, XML_NAMES.track.list) } },
      handler: async ({ store }) => ({ status: 200, body: (await tracks.list(store)).map(trackView) }),
    }),
    route.post(PATH, {
      summary: 'K2: create a track',
      description: 'Body `{"name": "Sales", "milestone": "Open,Demo,Won,Lost"}`. The name must not be Default nor the name of another track of the account.',
      request: { body: trackInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one },
      handler: async ({ body, store }) => {
        if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT to update' }]);
        return { status: 200, body: trackView(await tracks.create(store, body.name, milestonesOf(body))) };
      },
    }),
    route.put(PATH, {
      summary: 'K3: rename a track and set its milestones (without an id, create one)',
      description: 'A milestone that still holds deals cannot be removed or renamed; the Default track cannot be changed.',
      request: { body: trackInput, bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body, store }) => ({ status: 200, body: trackView(await tracks.save(store, body.id, body.name, milestonesOf(body))) }),
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'K4: delete a track',
      description: '400 for the Default track (always the last one left) and for a track that still holds deals.',
      request: { params: trackParams },
      responses: { 204: { description: 'Deleted (or there was no such track)' } },
      handler: async ({ params, store }) => {
        await tracks.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
