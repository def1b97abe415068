import { useReplicas } from '@lib/testing';
import { enrolmentModel, type EnrolmentDoc } from '../src/campaigns/campaign.model';
import { contactModel } from '../src/contacts/contact.model';
import { taskModel } from '../src/tasks/task.model';
import { crmData } from '../src/wiring';
import { person } from './setup-app';
import { eventually } from './webhooks/engine';

const CONTACTS = 24;

// Three crm-api processes on one database, each running the campaign worker (4 enrolments at a time, claims of 2 s).
const replicas = useReplicas({
  entry: 'apps/crm-api/src/main.ts',
  replicas: 3,
  env: { CAMPAIGN_POLL_MS: '50', CAMPAIGN_CONCURRENCY: '4', CAMPAIGN_LEASE_MS: '2000' },
});

it('three replicas run each step of each enrolment once; a replica killed mid-run leaves its steps to the others, none repeated, none lost', async () => {
  const { user, apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain: 'acme', email: 'ann@acme.test' });
  const as = (i: number) => (method: 'get' | 'post', path: string) => replicas.replica(i % 3)[method](path).auth('ann@acme.test', apiKey).set('Accept', 'application/json');

  const workflow = await as(0)('post', '/dev/api/workflows').send({
    name: 'Nurture',
    steps: [
      { type: 'ADD_SCORE', score: 1 },
      { type: 'ADD_TAG', tag: 'Nurtured' },
      { type: 'CREATE_TASK', subject: 'Call' },
      { type: 'WAIT', duration: 1, unit: 'SECONDS' },
      { type: 'ADD_SCORE', score: 10 },
      { type: 'CREATE_TASK', subject: 'Call again' },
      { type: 'WAIT', duration: 1, unit: 'SECONDS' },
      { type: 'ADD_SCORE', score: 100 },
    ],
  });
  expect(workflow.status).toBe(200);
  for (let i = 0; i < CONTACTS; i++) expect((await as(i)('post', '/dev/api/contacts').send(person(`P${i}`, `p${i}@acme.test`))).status).toBe(200);
  const enrolled = await Promise.all(Array.from({ length: CONTACTS }, (_, i) => as(i)('post', '/dev/api/campaigns/enroll/email').type('form').send({ email: `p${i}@acme.test`, 'workflow-id': String(workflow.body.id) })));
  expect(enrolled.map((res) => res.status)).toEqual(Array.from({ length: CONTACTS }, () => 200));

  const Enrolment = enrolmentModel(replicas.db.connection);
  // mid-run: some enrolments are past their first steps, some claimed right now
  await eventually(async () => (await Enrolment.countDocuments({ account: user.account, step: { $gte: 2 } })) >= 3, 20_000, 'steps under way');
  const killed = await replicas.kill(0);
  expect(killed.signal).toBe('SIGKILL');

  await eventually(async () => (await Enrolment.countDocuments({ account: user.account, status: 'DONE' })) === CONTACTS, 40_000, 'every enrolment done');

  const enrolments = await Enrolment.find({ account: user.account }).lean<EnrolmentDoc[]>();
  for (const e of enrolments) expect(e.log.map((run) => `${run.step} ${run.outcome.replace(/\d+/g, 'N')}`)).toEqual([
    '0 done', '1 done', '2 done: task N', '3 done', '4 done', '5 done: task N', '6 done', '7 done',
  ]);
  const contacts = await contactModel(replicas.db.connection).find({ account: user.account }).lean();
  expect(contacts).toHaveLength(CONTACTS);
  for (const c of contacts) {
    expect(c.lead_score).toBe(111);
    expect(Object.keys(c.tag_times ?? {})).toEqual(['Nurtured']);
  }
  const tasks = await taskModel(replicas.db.connection).find({ account: user.account }).lean();
  expect(tasks).toHaveLength(2 * CONTACTS);
  for (const c of contacts) expect(tasks.filter((t) => t.contacts.includes(c._id)).map((t) => t.subject).sort()).toEqual(['Call', 'Call again']);
}, 90_000);
