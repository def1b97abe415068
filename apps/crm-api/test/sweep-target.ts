import { snapshotDatabase, type SweepTarget } from '@lib/testing';
import type { setupCrmApp, TestUser } from './setup-app';

/**
 * The crm app as a sweep sees it: signed in as Ann, owner of the account acme (made by `seed`
 * before the sweep's requests), with the samples `seed` returns; everything stored as its snapshot.
 */
export function crmSweepTarget(ctx: ReturnType<typeof setupCrmApp>, seed: (ann: TestUser) => Promise<Record<string, string | number>>): SweepTarget & { readonly ann: TestUser } {
  let ann: TestUser | undefined;
  const samples: Record<string, string | number> = {};
  return {
    get app() {
      return ctx.app;
    },
    get ann() {
      if (!ann) throw new Error('Ann is made by the sweep\'s seed');
      return ann;
    },
    credentials: () => ({ Authorization: ann!.auth }),
    snapshot: () => snapshotDatabase(ctx.connection),
    sample: (name) => samples[name],
    async seed() {
      ann = await ctx.user('acme', 'ann@acme.test', { owner: true }); // the owner reaches every route (webhooks are managed by owners and admins)
      Object.assign(samples, await seed(ann));
    },
  };
}
