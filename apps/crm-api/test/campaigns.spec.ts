import { createLogger } from '@lib/http';
import { Webhook } from 'standardwebhooks';
import type { CampaignWorker } from '../src/campaigns/campaign-worker';
import { DEFAULT_CAMPAIGN_SETTINGS } from '../src/campaigns/campaign-settings';
import { crmData, crmWebhooks, newCampaignWorker } from '../src/wiring';
import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { eventually, testSettings } from './webhooks/engine';
import { useReceiver } from './webhooks/receiver';

/**
 * Campaigns (workflows): the original's calls (list, enroll by email with `workflow-id`,
 * remove-active-subscriber, unsubscribe), workflow management, and the worker running each kind of
 * step for enrolled contacts, in one process with short waits. On an embedded server of its own:
 * the steps' transactions hold that server's one write lock.
 */
const settings = testSettings();
const ctx = setupCrmApp({ webhooks: settings, ownServer: true });
const logger = createLogger('test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');
const webhooks = () => crmWebhooks(ctx.connection, logger, settings);
const receiver = useReceiver(() => webhooks().worker);

let ann: TestUser;
let zed: TestUser;
let campaigns: CampaignWorker | undefined;

function startCampaigns(): CampaignWorker {
  campaigns = newCampaignWorker(ctx.connection, logger, { webhooks: settings, campaigns: { ...DEFAULT_CAMPAIGN_SETTINGS, pollMs: 50, leaseMs: 3_000 }, contactLimit: 1000 }, webhooks());
  campaigns.start();
  return campaigns;
}

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test', { admin: true });
  zed = await ctx.user('other', 'zed@other.test');
});
afterEach(async () => {
  await campaigns?.stop();
  campaigns = undefined;
  await webhooks().worker.stop();
});

const tagSteps = [{ type: 'ADD_TAG', tag: 'Lead' }];

async function workflow(user: TestUser, body: object = { name: 'Welcome', steps: tagSteps }) {
  const res = await ctx.as(user).post('/dev/api/workflows').send(body);
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string };
}

async function contact(user: TestUser, name: string, email: string) {
  const res = await ctx.as(user).post('/dev/api/contacts').send(person(name, email));
  expect(res.status).toBe(200);
  return res.body as { id: number };
}

const enroll = (user: TestUser, email: string, workflowId: number | string) => ctx.as(user).post('/dev/api/campaigns/enroll/email').type('form').send({ email, 'workflow-id': String(workflowId) });

describe('workflows', () => {
  it('create, list, get, update and delete, as JSON', async () => {
    const created = await ctx.as(ann).post('/dev/api/workflows').send({
      name: 'Onboarding',
      steps: [
        { type: 'ADD_TAG', tag: 'New' },
        { type: 'WAIT', duration: 2, unit: 'DAYS' },
        { type: 'CREATE_TASK', subject: 'Call them' },
        { type: 'ADD_SCORE', score: -5 },
      ],
    });
    expect(created.status).toBe(200);
    const { id, created_time } = created.body;
    expect(created.body).toEqual({
      id,
      name: 'Onboarding',
      steps: [
        { type: 'ADD_TAG', tag: 'New' },
        { type: 'WAIT', duration: 2, unit: 'DAYS' },
        { type: 'CREATE_TASK', subject: 'Call them', task_type: 'OTHER', priority_type: 'NORMAL', due_in_days: 1 },
        { type: 'ADD_SCORE', score: -5 },
      ],
      domainUserId: ann.id,
      creatorName: expect.any(String),
      created_time,
      updated_time: created_time,
    });
    const list = await ctx.as(ann).get('/dev/api/workflows');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ ...created.body, count: 1 }]);
    expect((await ctx.as(ann).get(`/dev/api/workflows/${id}`)).body).toEqual(created.body);

    const updated = await ctx.as(ann).put('/dev/api/workflows').send({ id, name: 'Onboarding 2', steps: [{ type: 'REMOVE_TAG', tag: 'New' }] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Onboarding 2', steps: [{ type: 'REMOVE_TAG', tag: 'New' }] });

    expect((await ctx.as(ann).delete(`/dev/api/workflows/${id}`)).status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/workflows/${id}`)).status).toBe(404);
    expect((await ctx.as(ann).delete(`/dev/api/workflows/${id}`)).status).toBe(404);
    expect((await ctx.as(ann).get('/dev/api/workflows')).body).toEqual([]);
  });

  it('answers XML', async () => {
    const { id } = await workflow(ann);
    const one = await ctx.as(ann).get(`/dev/api/workflows/${id}`).set('Accept', 'application/xml');
    expect(one.status).toBe(200);
    expect(one.type).toBe('application/xml');
    expect(one.text).toContain('<workflow><id>');
    expect(one.text).toContain('<steps><type>ADD_TAG</type><tag>Lead</tag></steps>');
    const list = await ctx.as(ann).get('/dev/api/workflows').set('Accept', 'application/xml');
    expect(list.text).toMatch(/^<\?xml[^>]*>\s*<workflows><workflow><id>/);
  });

  it('pages with page_size and cursor', async () => {
    for (const name of ['A', 'B', 'C']) await workflow(ann, { name, steps: tagSteps });
    const first = await ctx.as(ann).get('/dev/api/workflows?page_size=2');
    expect(first.body.map((w: { name: string }) => w.name)).toEqual(['A', 'B']);
    expect(first.body[0].count).toBe(3);
    const next = await ctx.as(ann).get(`/dev/api/workflows?page_size=2&cursor=${encodeURIComponent(first.body[1].cursor)}`);
    expect(next.body.map((w: { name: string }) => w.name)).toEqual(['C']);
  });

  it('refuses bad steps (400 naming the field), unknown ids (404), other accounts (404), no credentials (401), a bad Accept (406)', async () => {
    const bad = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'X', steps: [{ type: 'SEND_EMAIL', to: 'a@b.c' }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('steps');
    const longWait = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'X', steps: [{ type: 'WAIT', duration: 366, unit: 'DAYS' }] });
    expect(longWait.status).toBe(400);
    const noHook = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'X', steps: [{ type: 'WEBHOOK', webhook_id: 12345 }] });
    expect(noHook.status).toBe(400);
    expect(noHook.body.error?.message ?? JSON.stringify(noHook.body)).toMatch(/webhook/);
    expect((await ctx.as(ann).post('/dev/api/workflows').send({ name: 'X', steps: [] })).status).toBe(400);
    expect((await ctx.as(ann).post('/dev/api/workflows').send({ id: 5, name: 'X', steps: tagSteps })).status).toBe(400);
    const tooManySteps = Array.from({ length: 51 }, () => ({ type: 'ADD_TAG', tag: 'A' }));
    expect((await ctx.as(ann).post('/dev/api/workflows').send({ name: 'X', steps: tooManySteps })).status).toBe(400);

    const { id } = await workflow(ann);
    expect((await ctx.as(zed).get(`/dev/api/workflows/${id}`)).status).toBe(404);
    expect((await ctx.as(zed).put('/dev/api/workflows').send({ id, name: 'Mine', steps: tagSteps })).status).toBe(404);
    expect((await ctx.as(zed).delete(`/dev/api/workflows/${id}`)).status).toBe(404);
    expect((await ctx.as(zed).get('/dev/api/workflows')).body).toEqual([]);
    expect((await ctx.as(ann).get('/dev/api/workflows/abc')).status).toBe(400);
    expect((await ctx.as(ann).get('/dev/api/workflows').set('Authorization', '')).status).toBe(401);
    expect((await ctx.as(ann).get('/dev/api/workflows').set('Accept', 'text/csv')).status).toBe(406);
  });

  it('holds at most 100 workflows per account', async () => {
    const store = ctx.storeOf(ann);
    for (let i = 0; i < 100; i++) await store.workflows.insert({ name: `W${i}`, steps: [{ type: 'ADD_TAG', tag: 'A' }], creator: ann.id, created_time: 1, updated_time: 1 });
    const res = await ctx.as(ann).post('/dev/api/workflows').send({ name: 'One more', steps: tagSteps });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/at most 100 workflows/);
    expect((await ctx.as(zed).post('/dev/api/workflows').send({ name: 'Fine', steps: tagSteps })).status).toBe(200);
  });
});

describe('enrolments', () => {
  it('enroll/email (form, as the original documents it): 200 with the enrolment; again: the same one', async () => {
    const { id: workflowId } = await workflow(ann);
    const al = await contact(ann, 'Al', 'al@acme.test');
    const res = await enroll(ann, 'al@acme.test', workflowId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      workflow_id: workflowId,
      contact_id: al.id,
      status: 'ACTIVE',
      step: 0,
      next_run_at: expect.any(Number),
      log: [],
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
    });
    const again = await enroll(ann, 'al@acme.test', workflowId);
    expect(again.body.id).toBe(res.body.id);
    const json = await ctx.as(ann).post('/dev/api/campaigns/enroll/email').send({ email: 'al@acme.test', 'workflow-id': workflowId });
    expect(json.body.id).toBe(res.body.id);
    const xml = await enroll(ann, 'al@acme.test', workflowId).set('Accept', 'application/xml');
    expect(xml.text).toContain(`<subscriber><id>${res.body.id}</id><workflow_id>${workflowId}</workflow_id>`);
    const subscribers = await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`);
    expect(subscribers.body).toEqual([{ ...res.body, count: 1 }]);
  });

  it('enroll/email refuses: no such contact, no such workflow, a company, a missing field (400); another account\'s workflow (400)', async () => {
    const { id: workflowId } = await workflow(ann);
    await contact(ann, 'Al', 'al@acme.test');
    await ctx.as(ann).post('/dev/api/contacts').send(company('Acme Co', { properties: [{ type: 'SYSTEM', name: 'name', value: 'Acme Co' }, { type: 'SYSTEM', name: 'email', value: 'co@acme.test' }] }));
    expect((await enroll(ann, 'nobody@acme.test', workflowId)).status).toBe(400);
    expect((await enroll(ann, 'al@acme.test', 999)).status).toBe(400);
    expect((await enroll(ann, 'al@acme.test', 'x')).status).toBe(400);
    expect((await ctx.as(ann).post('/dev/api/campaigns/enroll/email').type('form').send({ email: 'al@acme.test' })).status).toBe(400);
    await contact(zed, 'Zoe', 'zoe@other.test');
    expect((await enroll(zed, 'zoe@other.test', workflowId)).status).toBe(400);
    expect((await enroll(ann, 'al@acme.test', workflowId).set('Authorization', '')).status).toBe(401);
  });

  it('remove-active-subscriber: 204 and the enrolment REMOVED; 404 for a workflow or contact the account has not', async () => {
    const { id: workflowId } = await workflow(ann, { name: 'Slow', steps: [{ type: 'WAIT', duration: 1, unit: 'HOURS' }, ...tagSteps] });
    const al = await contact(ann, 'Al', 'al@acme.test');
    await enroll(ann, 'al@acme.test', workflowId);
    expect((await ctx.as(zed).delete(`/dev/api/workflows/remove-active-subscriber/${workflowId}/${al.id}`)).status).toBe(404);
    const res = await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/${workflowId}/${al.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body[0]).toMatchObject({ status: 'REMOVED', next_run_at: null });
    expect((await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/${workflowId}/${al.id}`)).status).toBe(204);
    expect((await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/999/${al.id}`)).status).toBe(404);
    expect((await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/${workflowId}/999`)).status).toBe(404);
    // enrolled again: from the first step
    expect((await enroll(ann, 'al@acme.test', workflowId)).body).toMatchObject({ status: 'ACTIVE', step: 0 });
  });

  it('unsubscribe: 204, the enrolment stops, and a later enrolment is refused; without workflow-id, from every workflow', async () => {
    const one = await workflow(ann, { name: 'One', steps: [{ type: 'WAIT', duration: 1, unit: 'HOURS' }, ...tagSteps] });
    const two = await workflow(ann, { name: 'Two', steps: [{ type: 'WAIT', duration: 1, unit: 'HOURS' }, ...tagSteps] });
    await contact(ann, 'Al', 'al@acme.test');
    await contact(ann, 'Bo', 'bo@acme.test');
    await enroll(ann, 'al@acme.test', one.id);
    const res = await ctx.as(ann).post('/dev/api/campaigns/unsubscribe').type('form').send({ email: 'al@acme.test', 'workflow-id': String(one.id) });
    expect(res.status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/workflows/${one.id}/subscribers`)).body[0]).toMatchObject({ status: 'UNSUBSCRIBED' });
    const refused = await enroll(ann, 'al@acme.test', one.id);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/unsubscribed/);
    // never enrolled in two: unsubscribed all the same
    expect((await ctx.as(ann).post('/dev/api/campaigns/unsubscribe').send({ email: 'al@acme.test', 'workflow-id': two.id })).status).toBe(204);
    expect((await enroll(ann, 'al@acme.test', two.id)).status).toBe(400);
    // from every workflow
    await enroll(ann, 'bo@acme.test', one.id);
    await enroll(ann, 'bo@acme.test', two.id);
    expect((await ctx.as(ann).post('/dev/api/campaigns/unsubscribe').type('form').send({ email: 'bo@acme.test' })).status).toBe(204);
    for (const w of [one, two]) expect((await enroll(ann, 'bo@acme.test', w.id)).status).toBe(400);
    expect((await ctx.as(ann).post('/dev/api/campaigns/unsubscribe').type('form').send({ email: 'nobody@acme.test' })).status).toBe(400);
    expect((await ctx.as(zed).post('/dev/api/campaigns/unsubscribe').type('form').send({ email: 'al@acme.test' })).status).toBe(400);
  });

  it('deleting a contact deletes its enrolments; deleting a workflow deletes its', async () => {
    const { id: workflowId } = await workflow(ann, { name: 'Slow', steps: [{ type: 'WAIT', duration: 1, unit: 'HOURS' }, ...tagSteps] });
    const al = await contact(ann, 'Al', 'al@acme.test');
    await contact(ann, 'Bo', 'bo@acme.test');
    await enroll(ann, 'al@acme.test', workflowId);
    await enroll(ann, 'bo@acme.test', workflowId);
    expect((await ctx.as(ann).delete(`/dev/api/contacts/${al.id}`)).status).toBe(204);
    const left = await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`);
    expect(left.body.map((e: { contact_id: number }) => e.contact_id)).not.toContain(al.id);
    expect(left.body).toHaveLength(1);
    expect((await ctx.as(ann).delete(`/dev/api/workflows/${workflowId}`)).status).toBe(204);
    expect(await ctx.storeOf(ann).enrolments.removeOfWorkflow(workflowId)).toMatchObject({ deletedCount: 0 });
  });
});

describe("the original's REST documentation, as written", () => {
  it('8 List of campaigns: page_size and cursor, JSON with Accept, XML without', async () => {
    await workflow(ann);
    const json = await ctx.as(ann).get('/dev/api/workflows?page_size=20&cursor=').set('Accept', 'application/json');
    expect(json.status).toBe(200);
    expect(json.body).toHaveLength(1);
    const xml = await ctx.as(ann).get('/dev/api/workflows?page_size=20').unset('Accept');
    expect(xml.type).toBe('application/xml');
  });

  it("1.18 enroll: the sample's spaces around = name a field `workflow-id ` (400 naming it, nothing stored); without them it works", async () => {
    const { id } = await workflow(ann);
    await contact(ann, 'Tester', 'tester@gmail.com');
    const sample = await ctx.as(ann).post('/dev/api/campaigns/enroll/email').set('Content-Type', 'application/x-www-form-urlencoded').send(`email=tester@gmail.com&workflow-id = ${id}`);
    expect(sample.status).toBe(400);
    expect(JSON.stringify(sample.body.error)).toContain('workflow-id ');
    expect((await ctx.as(ann).get(`/dev/api/workflows/${id}/subscribers`)).body).toEqual([]);
    const fixed = await ctx.as(ann).post('/dev/api/campaigns/enroll/email').set('Content-Type', 'application/x-www-form-urlencoded').send(`email=tester@gmail.com&workflow-id=${id}`);
    expect(fixed.status).toBe(200);
  });

  it('1.19 remove-active-subscriber: 204 with an empty body', async () => {
    const { id } = await workflow(ann, { name: 'Slow', steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }] });
    const tester = await contact(ann, 'Tester', 'tester@gmail.com');
    await enroll(ann, 'tester@gmail.com', id);
    const res = await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/${id}/${tester.id}`);
    expect([res.status, res.text]).toEqual([204, '']);
  });

  it("deleting a user gives the workflows it made to the account owner, whose tasks its CREATE_TASK steps make", async () => {
    const owner = await ctx.user('acme', 'olga@acme.test', { owner: true });
    const bob = await ctx.user('acme', 'bob@acme.test');
    const { id } = await workflow(bob);
    await crmData(ctx.connection).users.remove('bob@acme.test');
    expect((await ctx.as(ann).get(`/dev/api/workflows/${id}`)).body).toMatchObject({ domainUserId: owner.id });
  });
});

describe('the worker', () => {
  it('runs every kind of step once for each enrolled contact: tags, score, task, wait, webhook (signed)', async () => {
    const hook = await ctx.as(ann).post('/dev/api/webhooks').send({ url: receiver().url(), events: ['task.created', 'contact.updated'] });
    expect(hook.status).toBe(200);
    const { id: workflowId } = await workflow(ann, {
      name: 'Everything',
      steps: [
        { type: 'ADD_TAG', tag: 'Lead' },
        { type: 'ADD_TAG', tag: 'Temp' },
        { type: 'ADD_SCORE', score: 10 },
        { type: 'CREATE_TASK', subject: 'Call them', task_type: 'CALL', priority_type: 'HIGH', due_in_days: 2 },
        { type: 'WAIT', duration: 1, unit: 'SECONDS' },
        { type: 'REMOVE_TAG', tag: 'Temp' },
        { type: 'ADD_SCORE', score: -3 },
        { type: 'WEBHOOK', webhook_id: hook.body.id },
      ],
    });
    const al = await contact(ann, 'Al', 'al@acme.test');
    const enrolled = Date.now();
    expect((await enroll(ann, 'al@acme.test', workflowId)).status).toBe(200);
    webhooks().worker.start();
    startCampaigns();

    const done = await eventually(async () => {
      const [e] = (await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body;
      return e?.status === 'DONE' && e;
    }, 15_000, 'the enrolment done');
    expect(done.log.map((r: { type: string; outcome: string }) => `${r.type} ${r.outcome.replace(/\d+/g, 'N')}`)).toEqual([
      'ADD_TAG done',
      'ADD_TAG done',
      'ADD_SCORE done',
      'CREATE_TASK done: task N',
      'WAIT done',
      'REMOVE_TAG done',
      'ADD_SCORE done',
      'WEBHOOK done: delivery to webhook N',
    ]);
    // the wait held the steps after it back at least its second
    expect(done.log[5].at * 1000).toBeGreaterThanOrEqual(Math.floor(enrolled / 1000) * 1000 + 1000);
    const shown = await ctx.as(ann).get(`/dev/api/contacts/${al.id}`);
    expect(shown.body).toMatchObject({ tags: ['Lead'], lead_score: 7 });
    const tasks = await ctx.as(ann).get(`/dev/api/contacts/${al.id}/tasks/sort`);
    expect(tasks.body).toHaveLength(1);
    expect(tasks.body[0]).toMatchObject({ subject: 'Call them', type: 'CALL', priority_type: 'HIGH' });

    // the webhook got each contact change (tags, score), task.created (the task step's event) and the campaign step, each once, signed
    const received = await receiver().waitFor(7);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver().received).toHaveLength(7);
    const bodies = received.map((r) =>
      new Webhook(hook.body.secret).verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) }) as {
        eventName: string;
        eventData: Record<string, unknown>;
      },
    );
    expect(bodies.map((b) => b.eventName).sort()).toEqual(['Contact is Updated', 'Contact is Updated', 'Contact is Updated', 'Contact is Updated', 'Contact is Updated', 'campaign.step', 'task.created']);
    const updates = bodies.filter((b) => b.eventName === 'Contact is Updated').map((b) => b.eventData as { tags: string[]; lead_score: number });
    expect(updates.map((u) => `${u.tags.join('+')} ${u.lead_score}`)).toEqual(['Lead 0', 'Lead+Temp 0', 'Lead+Temp 10', 'Lead 10', 'Lead 7']);
    const step = bodies.find((b) => b.eventName === 'campaign.step')!;
    expect(step.eventData).toMatchObject({ workflow: { id: workflowId, name: 'Everything' }, step: 7, enrolment_id: done.id, contact: { id: al.id, tags: ['Lead'], lead_score: 7 } });
  });

  it('a step the contact cannot take is logged as skipped and the enrolment goes on', async () => {
    const { id: workflowId } = await workflow(ann, { name: 'Scores', steps: [{ type: 'ADD_SCORE', score: -5 }, ...tagSteps] });
    const al = await contact(ann, 'Al', 'al@acme.test');
    await enroll(ann, 'al@acme.test', workflowId);
    startCampaigns();
    const done = await eventually(async () => {
      const [e] = (await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body;
      return e?.status === 'DONE' && e;
    }, 10_000);
    expect(done.log.map((r: { outcome: string }) => r.outcome)).toEqual([expect.stringMatching(/^skipped: /), 'done']);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${al.id}`)).body).toMatchObject({ lead_score: 0, tags: ['Lead'] });
  });

  it('a removed subscriber stops at once: the step after its wait never runs', async () => {
    const { id: workflowId } = await workflow(ann, { name: 'Later', steps: [{ type: 'ADD_TAG', tag: 'First' }, { type: 'WAIT', duration: 1, unit: 'SECONDS' }, { type: 'ADD_TAG', tag: 'Second' }] });
    const al = await contact(ann, 'Al', 'al@acme.test');
    await enroll(ann, 'al@acme.test', workflowId);
    startCampaigns();
    await eventually(async () => (await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body[0]?.step === 2, 10_000);
    expect((await ctx.as(ann).delete(`/dev/api/workflows/remove-active-subscriber/${workflowId}/${al.id}`)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await ctx.as(ann).get(`/dev/api/contacts/${al.id}`)).body.tags).toEqual(['First']);
    const [e] = (await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body;
    expect(e).toMatchObject({ status: 'REMOVED', step: 2 });
    expect(e.log).toHaveLength(2);
  });

  it('many contacts, one worker: each gets each step once', async () => {
    const { id: workflowId } = await workflow(ann, { name: 'Bulk', steps: [{ type: 'ADD_SCORE', score: 1 }, { type: 'ADD_SCORE', score: 2 }, { type: 'CREATE_TASK', subject: 'Hello' }] });
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push((await contact(ann, `P${i}`, `p${i}@acme.test`)).id);
      await enroll(ann, `p${i}@acme.test`, workflowId);
    }
    startCampaigns();
    await eventually(async () => {
      const list = (await ctx.as(ann).get(`/dev/api/workflows/${workflowId}/subscribers`)).body as Array<{ status: string }>;
      return list.every((e) => e.status === 'DONE') && list.length === 10;
    }, 20_000);
    for (const id of ids) {
      expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.lead_score).toBe(3);
      expect((await ctx.as(ann).get(`/dev/api/contacts/${id}/tasks/sort`)).body).toHaveLength(1);
    }
  });
});
