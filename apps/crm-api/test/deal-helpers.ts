import { dealModel } from '../src/deals/deal.model';
import { trackModel } from '../src/tracks/track.model';
import { person, type setupCrmApp, type TestUser } from './setup-app';

type Ctx = ReturnType<typeof setupCrmApp>;

export interface Track {
  id: number;
  name: string;
  milestones: string;
}

/** Helpers for the track and deal suites, on a suite's app. */
export function dealHelpers(ctx: Ctx) {
  const helpers = {
    Deal: () => dealModel(ctx.connection),
    Track: () => trackModel(ctx.connection),

    async tracks(user: TestUser): Promise<Track[]> {
      const res = await ctx.as(user).get('/dev/api/milestone/pipelines');
      expect(res.status).toBe(200);
      return res.body;
    },

    async defaultTrack(user: TestUser): Promise<Track> {
      return (await helpers.tracks(user)).find((t) => t.name === 'Default')!;
    },

    async createTrack(user: TestUser, name: string, milestone: string): Promise<Track> {
      const res = await ctx.as(user).post('/dev/api/milestone/pipelines').send({ name, milestone });
      expect(res.status).toBe(200);
      return res.body;
    },

    async contact(user: TestUser, firstName: string, email?: string): Promise<{ id: number }> {
      const res = await ctx.as(user).post('/dev/api/contacts').send(person(firstName, email));
      expect(res.status).toBe(200);
      return res.body;
    },

    /** A valid deal body for `user` in `track` (the Default track's Open when omitted). */
    dealBody(user: TestUser, track: Track, extra: object = {}) {
      return { name: 'Big deal', expected_value: 5000, pipeline_id: track.id, milestone: track.milestones.split(',')[0], close_date: 1_800_000_000, owner_id: String(user.id), ...extra };
    },

    async createDeal(user: TestUser, track: Track, extra: object = {}): Promise<Record<string, unknown> & { id: number }> {
      const res = await ctx.as(user).post('/dev/api/opportunity').send(helpers.dealBody(user, track, extra));
      expect(res.status).toBe(200);
      return res.body;
    },
  };
  return helpers;
}

