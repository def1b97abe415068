import { createSecretKey } from 'node:crypto';
import express from 'express';
import jwt from 'jsonwebtoken';
import { MongoClient } from 'mongodb';
import { NEWS_SEARCH_DB } from './endpoints';

/** news-api's development JWT secret (the bench runs the apps with their development defaults). */
const NEWS_JWT_SECRET = createSecretKey(Buffer.from('news-api-development-jwt-secret-not-for-production', 'utf8'));

/**
 * The benchmark's baseline: bare Express handlers doing the same database work as our endpoints
 * with the plain MongoDB driver — no authentication, validation, logging, security headers or
 * response shaping. Run as its own process so its CPU time is measured on its own.
 */
async function main(): Promise<void> {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is required');
  const client = await new MongoClient(url, { maxPoolSize: 20 }).connect();
  const crm = client.db('crm');
  const account = (await crm.collection<{ _id: number; domain: string }>('accounts').findOne({ domain: process.env.CRM_DOMAIN ?? 'example' }))?._id;
  if (account === undefined) throw new Error('the crm account is missing: seed first');
  const contacts = crm.collection<{ _id: number; account: number; owner: number; emails: string[]; created_time: number; type: string }>('contacts');
  const users = crm.collection<{ _id: number; account: number }>('domain_users');
  const deals = crm.collection<{ _id: number; account: number; pipeline_id: number; owner_id: number; contact_ids: number[] }>('deals');
  const tracksOf = crm.collection<{ _id: number; account: number; name: string }>('tracks');
  const ownerOf = (doc: { owner: number } | null) => (doc ? users.find({ account, _id: { $in: [doc.owner] } }).toArray() : []);

  // made once here: concurrent upserts of a missing counter can collide on its _id
  await crm.collection<{ _id: string; seq: number }>('counters').updateOne({ _id: 'bench_contacts' }, { $setOnInsert: { seq: 0 } }, { upsert: true });

  const app = express();
  app.get('/crm/contacts/:id', async (req, res) => {
    const doc = await contacts.findOne({ _id: Number(req.params.id), account });
    res.json({ doc, owner: await ownerOf(doc) });
  });
  app.get('/crm/contacts', async (req, res) => {
    const limit = Number(req.query.page_size ?? 20) + 1;
    const [count, docs] = await Promise.all([contacts.countDocuments({ account }), contacts.find({ account }).sort({ created_time: 1, _id: 1 }).limit(limit).toArray()]);
    const owners = await users.find({ account, _id: { $in: [...new Set(docs.map((d) => d.owner))] } }).toArray();
    res.json({ count, docs, owners });
  });
  app.post('/crm/contacts', express.json(), async (req, res) => {
    const counter = await crm.collection<{ _id: string; seq: number }>('counters').findOneAndUpdate({ _id: 'bench_contacts' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
    const doc = { _id: counter?.seq ?? 0, account, ...req.body, created_time: Math.floor(Date.now() / 1000) };
    await crm.collection<{ _id: number }>('bench_contacts').insertOne(doc);
    res.json(doc);
  });
  app.get('/crm/search/email/:email', async (req, res) => {
    const doc = await contacts.findOne({ account, emails: req.params.email }, { sort: { type: -1, _id: 1 } });
    res.json({ doc, owner: await ownerOf(doc) });
  });
  // D9: the track, its deals, then (as our presenter) their contacts, owners, track names and notes, then the contacts' owners
  app.get('/crm/deals/by-milestone/:track', async (req, res) => {
    const track = await tracksOf.findOne({ _id: Number(req.params.track), account });
    const docs = await deals.find({ account, pipeline_id: track?._id }).sort({ created_time: 1, _id: 1 }).toArray();
    const [related, owners, tracks, notes] = await Promise.all([
      contacts.find({ account, _id: { $in: [...new Set(docs.flatMap((d) => d.contact_ids))] } }).toArray(),
      users.find({ account, _id: { $in: [...new Set(docs.map((d) => d.owner_id))] } }).toArray(),
      tracksOf.find({ account, _id: { $in: [...new Set(docs.map((d) => d.pipeline_id))] } }, { projection: { name: 1 } }).toArray(),
      crm.collection('notes').find({ account, deals: { $in: docs.map((d) => d._id) } }, { projection: { deals: 1 }, sort: { created_time: 1, _id: 1 } }).toArray(),
    ]);
    const contactOwners = await users.find({ account, _id: { $in: [...new Set(related.map((c) => c.owner))] } }).toArray();
    res.json({ track, deals: docs, contacts: related, owners, tracks, notes, contactOwners });
  });
  // GET /news?company=: the total and a keyset page of 21 (our token's user comes from news-api's cache, not the database)
  const news = client.db('news');
  // with `counted=1`, also what a request with an API key adds: one atomic update of its key's day
  const usage = news.collection<{ _id: string; count: number }>('bench_key_usage');
  app.get('/news', async (req, res) => {
    const filter = { companies: { $in: String(req.query.company).split(',') } };
    const articles = news.collection('articles');
    if (req.query.counted) await usage.findOneAndUpdate({ _id: `bench:${new Date().toISOString().slice(0, 10)}` }, { $inc: { count: 1 } }, { upsert: true, returnDocument: 'after' });
    const [total, data] = await Promise.all([articles.countDocuments(filter), articles.find(filter).sort({ published_at: -1, _id: -1 }).limit(21).toArray()]);
    res.json({ total, data });
  });
  // GET /news?q=("iron ore" OR lithium OR gold) -copper&sort=relevancy: the same filter news-api
  // builds, the total, the corpus size and each ranking word's count, the newest 1,000 matches'
  // search fields, BM25F as news-api scores (search/bm25.ts), then the page of 20 by ids
  const SEARCHED = ['title', 'summary', 'content'] as const;
  const WEIGHT = { title: 3, summary: 1.5, content: 1 };
  const TYPICAL = { title: 11, summary: 32, content: 250 };
  const RANKING = ['iron', 'ore', 'lithium', 'gold'];
  const phrase = '(?:^| )iron ore(?: |$)';
  const relevanceFilter = {
    $and: [
      { $or: [{ 'search.terms': { $all: ['iron', 'ore'] }, $or: SEARCHED.map((f) => ({ [`search.${f}`]: { $regex: phrase } })) }, { 'search.terms': 'lithium' }, { 'search.terms': 'gold' }] },
      { $nor: [{ 'search.terms': 'copper' }] },
    ],
  };
  type Ranked = { _id: number; published_at: Date; search?: Record<string, string> };
  app.get('/news/relevance', async (_req, res) => {
    const articles = client.db(NEWS_SEARCH_DB).collection<Ranked>('articles');
    const [total, corpus, holding, window] = await Promise.all([
      articles.countDocuments(relevanceFilter),
      articles.estimatedDocumentCount(),
      Promise.all(RANKING.map((word) => articles.countDocuments({ 'search.terms': word }, { limit: 20_000 }))),
      articles.find(relevanceFilter, { sort: { published_at: -1, _id: -1 }, limit: 1_001, projection: { published_at: 1, 'search.title': 1, 'search.summary': 1, 'search.content': 1 } }).toArray(),
    ]);
    const idf = holding.map((n) => Math.log(1 + (corpus - n + 0.5) / (n + 0.5)));
    const scored = window.slice(0, 1_000).map((doc) => {
      const tf = RANKING.map(() => 0);
      for (const field of SEARCHED) {
        const tokens = doc.search?.[field]?.split(' ') ?? [];
        const norm = WEIGHT[field] / (0.25 + (0.75 * tokens.length) / TYPICAL[field]);
        for (const token of tokens) {
          const i = RANKING.indexOf(token);
          if (i >= 0) tf[i] += norm;
        }
      }
      return { id: doc._id, time: doc.published_at.getTime(), score: tf.reduce((sum, t, i) => sum + (t ? (idf[i] * t * 2.2) / (t + 1.2) : 0), 0) };
    });
    scored.sort((a, b) => b.score - a.score || b.time - a.time || b.id - a.id);
    const ids = scored.slice(0, 21).map((item) => item.id);
    const docs = await articles.find({ _id: { $in: ids.slice(0, 20) } }).toArray();
    res.json({ total, data: ids.slice(0, 20).map((id) => docs.find((doc) => doc._id === id)) });
  });
  // GET /users/me: the token's HMAC check (as news-api: HS256 pinned, a KeyObject made once), then one read of its user
  app.get('/news/users/me', async (req, res) => {
    const payload = jwt.verify(String(req.headers.authorization).slice(7), NEWS_JWT_SECRET, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    const user = await news.collection<{ _id: number }>('users').findOne({ _id: Number(payload.sub) }, { projection: { password_hash: 0 } });
    res.json(user);
  });
  app.get('/articles', async (_req, res) => {
    const articles = client.db('articles').collection('articles');
    const [total, data] = await Promise.all([articles.countDocuments(), articles.find().sort({ _id: 1 }).skip(0).limit(20).toArray()]);
    res.json({ total, data });
  });
  app.get('/users', async (_req, res) => {
    res.json({ data: await client.db('users').collection('users').find().sort({ _id: 1 }).limit(101).toArray() });
  });
  app.get('/readyz', (_req, res) => res.json({ status: 'ready' }));
  app.listen(Number(process.env.PORT), '127.0.0.1');
  // exit normally on the bench's SIGTERM, so that `--cpu-prof` writes the profile (profile.ts)
  process.once('SIGTERM', () => process.exit(0));
}

main().catch((err: Error) => {
  console.error(`baseline failed: ${err.message}`);
  process.exit(1);
});
