// No crm query can name an account it was not given. The forms below must not compile:
// `npm run typecheck` (tsc over src and test) fails if any `@ts-expect-error` stops being an error.
// The tests at the end show the run-time half: what a cast smuggles past the types still lands in
// the caller's account.
import { PUBLIC } from '@lib/routing';
import { z } from '@lib/validation';
import type { Connection } from 'mongoose';
import type { DomainUserDoc } from '../src/accounts/domain-user.model';
import type { ContactDoc } from '../src/contacts/contact.model';
import { contactModel } from '../src/contacts/contact.model';
import { contactRepository } from '../src/contacts/contact.repository';
import type { ContactService } from '../src/contacts/contact.service';
import { defineRoute } from '../src/define-route';
import type { AccountScope } from '../src/store/account-scope';
import { accountIdOf, type AccountId } from '../src/store/account-id';
import type { CrmStore } from '../src/store/crm-store';
import { person, setupCrmApp, type TestUser } from './setup-app';

const ok = { 200: { description: 'ok', schema: z.strictObject({ n: z.number() }) } };

/** Never called: type checks only. */
export function refusedForms(stores: CrmStore, scope: AccountScope<ContactDoc>, contacts: ContactService, user: DomainUserDoc, connection: Connection, params: { id: number }, readWhole: Partial<ContactDoc>) {
  // a bare number where an AccountId is required
  // @ts-expect-error an id from the request is not an AccountId
  stores.of(params.id);
  // @ts-expect-error nor is a literal
  stores.of(5);
  // @ts-expect-error nor is a user's account field read as a number
  const _fromField: AccountId = user.account;
  // @ts-expect-error an AccountId is made from a signed-in user, not from a number
  accountIdOf(params.id);
  const store = stores.of(accountIdOf(user)); // the form the auth scheme uses

  // a filter naming `account`
  // @ts-expect-error in a read
  scope.find({ account: 2 });
  // @ts-expect-error in a count
  scope.count({ account: 2, type: 'PERSON' });
  // @ts-expect-error inside $or
  scope.exists({ $or: [{ account: 2 }] });
  // @ts-expect-error in a delete
  scope.deleteMany({ account: 2 });

  // an update moving a record to another account
  // @ts-expect-error with $set
  scope.updateOne({ _id: 1 }, { $set: { account: 2 } });
  // @ts-expect-error with $inc
  scope.updateMany({}, { $inc: { account: 1 } });
  // @ts-expect-error as a replacement field
  scope.findOneAndUpdate({ _id: 1 }, { account: 2 }, 'after');
  // @ts-expect-error in a compare-and-set edit
  scope.updateByRevision(1, () => ({ account: 2 }));
  // @ts-expect-error in the fields set beside a list removal
  scope.removeFromLists({}, 'contacts', [1], { account: 2 });
  // @ts-expect-error in a repository's changes: a record read whole (it holds its account) is not a change
  void store.contacts.writeLeased(1, 'lease', { ...readWhole });

  // a repository call without its store
  // @ts-expect-error a service takes the account's store, not an account number
  void contacts.get(user.account, params.id);
  // @ts-expect-error a repository is built on an account scope, never on a model
  contactRepository(contactModel(connection));
  // @ts-expect-error a store has no way to reach another account
  void store.of;

  return [
    // a handler reading another scheme's context
    defineRoute({
      method: 'get',
      path: '/p',
      auth: PUBLIC,
      summary: 'public',
      responses: ok,
      // @ts-expect-error a public route has no account store
      handler: ({ store: other }) => ({ status: 200, body: { n: other.account } }),
    }),
    defineRoute({
      method: 'get',
      path: '/b',
      auth: 'basic',
      summary: 'signed in',
      responses: ok,
      // the forms a signed-in route has
      handler: async ({ store: own, user: caller }) => ({ status: 200, body: { n: (await contacts.count(own)) + caller._id } }),
    }),
  ];
}

const ctx = setupCrmApp();
let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

describe('what a cast smuggles past the types still stays in the store’s account', () => {
  it('a built record carrying another account is stored in the store’s account (the account is written last)', async () => {
    const smuggled = { subject: 'S', description: 'D', contacts: [], deals: [7], owner: ann.id, created_time: 1, updated_time: 1, account: zed.account } as never;
    const note = await ctx.storeOf(ann).notes.insert(smuggled);
    expect(note.account).toBe(ann.account);
    expect((await ctx.connection.collection('notes').findOne({ _id: note._id as never }))?.account).toBe(ann.account);
    expect((await ctx.as(zed).get('/dev/api/opportunity/7/notes')).body).toEqual([]);
    expect((await ctx.as(ann).get('/dev/api/opportunity/7/notes')).body.map((n: { id: number }) => n.id)).toEqual([note._id]);
  });

  it('a filter carrying another account still reads only the store’s account', async () => {
    const theirs = (await ctx.as(zed).post('/dev/api/contacts').send(person('Zoe'))).body;
    const page = await ctx.storeOf(ann).contacts.filtered({ account: zed.account } as never, { page_size: 10 }, 'smuggled');
    expect(await page.read(10)).toEqual([]);
    expect(await page.count).toBe(0);
    expect((await ctx.storeOf(zed).contacts.get(theirs.id))?.account).toBe(zed.account);
  });

  it('a cursor of one account’s list does not open the same list of another account', async () => {
    for (const name of ['A', 'B', 'C']) expect((await ctx.as(ann).post('/dev/api/contacts').send(person(name))).status).toBe(200);
    const first = await ctx.as(ann).get('/dev/api/contacts?page_size=1');
    const cursor = first.body[0].cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const replayed = await ctx.as(zed).get(`/dev/api/contacts?page_size=1&cursor=${encodeURIComponent(cursor)}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.code).toBe('invalid_cursor');
  });
});
