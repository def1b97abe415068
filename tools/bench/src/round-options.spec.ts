import type { Endpoint } from './endpoints';
import { inRotatingOrder, measureOptionsOf, readsFirst, rowsNamed } from './round-options';

const row = (name: string) => ({ name }) as Endpoint;
const rows = [row('crm GET contact by id'), row('crm POST contact'), row('news GET /users/me'), row('users GET /users')];
const names = (selected: Endpoint[]) => selected.map((r) => r.name);

describe('the rounds tools’ options (ab.ts, profile.ts)', () => {
  it('--only keeps the rows whose name contains the text, or any of its comma-separated parts; without it, every row', () => {
    expect(names(rowsNamed(rows, undefined))).toEqual(names(rows));
    expect(names(rowsNamed(rows, 'contact'))).toEqual(['crm GET contact by id', 'crm POST contact']);
    expect(names(rowsNamed(rows, 'by id,users/me'))).toEqual(['crm GET contact by id', 'news GET /users/me']);
    expect(rowsNamed(rows, 'nothing like it')).toEqual([]);
  });

  it('a part =name keeps the row of exactly that name, not those it starts', () => {
    const news = [row('news GET /news?company=BHP'), row('news GET /news?company=BHP (X-Api-Key)')];
    expect(names(rowsNamed(news, 'company=BHP'))).toEqual(names(news));
    expect(names(rowsNamed(news, '=news GET /news?company=BHP'))).toEqual(['news GET /news?company=BHP']);
    expect(names(rowsNamed([...rows, ...news], 'by id,=news GET /news?company=BHP'))).toEqual(['crm GET contact by id', 'news GET /news?company=BHP']);
    expect(rowsNamed(news, '=news GET')).toEqual([]);
  });

  it('a run is a fixed number of requests after a fixed number of warm-up requests, not a duration', () => {
    expect(measureOptionsOf({ requests: '3000', warmup: '500', connections: '10' })).toEqual({ connections: 10, durationSeconds: 0, warmupSeconds: 0, requests: 3000, warmupRequests: 500 });
  });

  it('the reads run before the writes, each group in its own order', () => {
    const request = (name: string, method: string) => ({ name, ours: { method } }) as Endpoint;
    const mixed = [request('a read', 'GET'), request('a write', 'POST'), request('another read', 'GET'), request('a delete', 'DELETE')];
    expect(names(readsFirst(mixed))).toEqual(['a read', 'another read', 'a write', 'a delete']);
  });

  it('each round runs every side once, starting one later than the round before, and answers in the sides\' order', async () => {
    const order: string[] = [];
    const runs = ['ours', 'baseline', 'unbounded'].map((side) => async () => (order.push(side), `${side} figures`));
    expect(await inRotatingOrder(0, runs)).toEqual(['ours figures', 'baseline figures', 'unbounded figures']);
    expect(await inRotatingOrder(1, runs)).toEqual(['ours figures', 'baseline figures', 'unbounded figures']);
    expect(await inRotatingOrder(5, runs)).toEqual(['ours figures', 'baseline figures', 'unbounded figures']);
    expect(order).toEqual(['ours', 'baseline', 'unbounded', 'baseline', 'unbounded', 'ours', 'unbounded', 'ours', 'baseline']);
  });
});
