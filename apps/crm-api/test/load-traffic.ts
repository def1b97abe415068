import { expectServedThroughOutage, type FaultyServiceApp, type OutageTiming, type RawRequest } from '@lib/testing';
import { person } from './setup-app';

export const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

/**
 * Mixed traffic of one worker: create a person, tag the shared contact, read it, read a page (workers
 * start at different steps). Tags come from 40 names per prefix, so the shared contact stays under its
 * 100-tag limit across the runs that share it while many connections write it at once.
 */
export function mixedTraffic(auth: string, sharedId: number, prefix: string) {
  return (worker: number, n: number): RawRequest => {
    const headers = { ...json, Authorization: auth };
    switch ((worker + n) % 4) {
      case 0:
        return { method: 'post', url: '/dev/api/contacts', headers, body: JSON.stringify(person(`W${worker}`, `${prefix}${worker}x${n}@load.test`)) };
      case 1:
        return { method: 'put', url: '/dev/api/contacts/edit/tags', headers, body: JSON.stringify({ id: sharedId, tags: [`T${prefix}${(worker * 7 + n) % 40}`] }) };
      case 2:
        return { method: 'get', url: `/dev/api/contacts/${sharedId}`, headers };
      default:
        return { method: 'get', url: '/dev/api/contacts?page_size=5', headers };
    }
  };
}

/** What the acknowledged writes were: created emails and added tags. */
export function acknowledgements() {
  const emails: string[] = [];
  const tags: string[] = [];
  return {
    emails,
    tags,
    record(req: RawRequest, status: number) {
      if (status !== 200 || !req.body) return;
      const body = JSON.parse(String(req.body));
      if (req.url === '/dev/api/contacts') emails.push(body.properties[1].value);
      else tags.push(...body.tags);
    },
  };
}


/** crm's answer while its database is away. */
export const unavailableBody = { error: { status: 503, code: 'database_unavailable', message: 'The database is unavailable; try again shortly', error_id: expect.any(String) } };
/** crm's answer to a request whose admission wait (sign-in line, heavy-request queue) ended before its deadline. */
export const overloadedBody = { error: { status: 503, code: 'overloaded', message: expect.any(String), error_id: expect.any(String) } };

/** Mixed traffic (as `auth`, on the shared contact) through the database's outage, every answer 200 or crm's 503; answers the writes acknowledged. */
export async function ackedThroughOutage(faulty: FaultyServiceApp, timing: OutageTiming, auth: string, sharedId: number, prefix: string, connections?: number) {
  const acked = acknowledgements();
  await expectServedThroughOutage(faulty, timing, {
    connections,
    next: mixedTraffic(auth, sharedId, prefix),
    onResponse: (req, res) => acked.record(req, res.status),
    statuses: ['200', '503'],
    unavailableBody,
    overloadedBody,
  });
  return acked;
}
