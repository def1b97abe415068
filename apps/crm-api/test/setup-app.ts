import type { FailedAttemptSettings } from '@lib/http';
import { useServiceApp, withMore } from '@lib/testing';
import request from 'supertest';
import { accountModel } from '../src/accounts/account.model';
import { createApp } from '../src/app';
import { contactModel, emailClaimModel } from '../src/contacts/contact.model';
import type { AccountId } from '../src/store/account-id';
import type { DeliverySettings } from '../src/webhooks/webhook-settings';
import { crmData } from '../src/wiring';

export const TEST_CURSOR_SECRET = 'crm-test-cursor-secret-0123456789';

export interface TestUser {
  id: number;
  account: number;
  email: string;
  apiKey: string;
  /** `Authorization` header value for this user. */
  auth: string;
}

/**
 * A CRM app on this test file's own database, emptied before each test, plus helpers to make
 * accounts and users and to call the API as them.
 */
export function setupCrmApp(options: { contactLimit?: number; monitorCommands?: boolean; authLimit?: FailedAttemptSettings; webhooks?: DeliverySettings; ownServer?: boolean } = {}) {
  // The sweeps send hundreds of wrong credentials from one address; the limit itself is tested with
  // its default in auth-limit.spec.ts and replicas.spec.ts.
  const authLimit = options.authLimit ?? { maxFailures: 100_000, windowMs: 60_000 };
  const service = useServiceApp((deps) => createApp({ ...deps, contactLimit: options.contactLimit ?? 1000, cursorSecret: TEST_CURSOR_SECRET, authLimit, webhooks: options.webhooks }), {
    monitorCommands: options.monitorCommands,
    ownServer: options.ownServer,
    models: { Contact: contactModel, Account: accountModel, EmailClaim: emailClaimModel },
  });

  const ctx = withMore(service, {
    accounts: () => crmData(service.connection).accounts,

    /** The store of a test user's account, as its requests get it (`ctx.store`). */
    storeOf: (user: TestUser) => crmData(service.connection).store.of(user.account as AccountId),

    /** A user of the account `domain` (made if new), with a fresh API key. */
    async user(domain: string, email: string, options: { admin?: boolean; owner?: boolean } = {}): Promise<TestUser> {
      const { user, apiKey } = await ctx.accounts().addUser({ domain, email, admin: options.admin, owner: options.owner });
      return { id: user._id, account: user.account, email, apiKey, auth: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` };
    },

    /** Ann and a colleague (Bob unless named) of the account acme, and Zed of another account, made in that order. */
    async threeUsers(colleague = 'bob'): Promise<{ ann: TestUser; colleague: TestUser; zed: TestUser }> {
      const ann = await ctx.user('acme', 'ann@acme.test');
      const other = await ctx.user('acme', `${colleague}@acme.test`);
      return { ann, colleague: other, zed: await ctx.user('other', 'zed@other.test') };
    },

    /** supertest agent methods that send the user's credentials and ask for JSON. */
    as(user: TestUser) {
      const agent = request(service.app);
      const withAuth = (test: request.Test) => test.set('Authorization', user.auth).set('Accept', 'application/json');
      return {
        get: (path: string) => withAuth(agent.get(path)),
        post: (path: string) => withAuth(agent.post(path)),
        put: (path: string) => withAuth(agent.put(path)),
        delete: (path: string) => withAuth(agent.delete(path)),
      };
    },
  });
  return ctx;
}

/** Properties of a person with a first name and (optionally) an email. */
export function person(firstName: string, email?: string, extra: object = {}) {
  return {
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: firstName },
      ...(email ? [{ type: 'SYSTEM', name: 'email', subtype: 'work', value: email }] : []),
    ],
    ...extra,
  };
}

/** A company named `name`. */
export function company(name: string, extra: object = {}) {
  return { type: 'COMPANY', properties: [{ type: 'SYSTEM', name: 'name', value: name }], ...extra };
}
