import type { setupCrmApp, TestUser } from '../setup-app';

/** Setup of the replay suites (not part of any replay): the records their calls work on, made as `user()`. */
export function records(ctx: ReturnType<typeof setupCrmApp>, user: () => TestUser) {
  const make = {
    async contact(body: object): Promise<number> {
      const res = await ctx.as(user()).post('/dev/api/contacts').send(body);
      expect(res.status).toBe(200);
      return res.body.id;
    },
    async track(): Promise<{ id: number }> {
      return (await ctx.as(user()).get('/dev/api/milestone/pipelines')).body.find((t: { name: string }) => t.name === 'Default');
    },
    async deal(extra: object = {}): Promise<number> {
      const track = await make.track();
      const deal = { name: 'D', expected_value: 1, pipeline_id: track.id, milestone: 'Open', close_date: 1414317504, owner_id: user().id, ...extra };
      const res = await ctx.as(user()).post('/dev/api/opportunity').send(deal);
      expect(res.status).toBe(200);
      return res.body.id;
    },
  };
  return make;
}
