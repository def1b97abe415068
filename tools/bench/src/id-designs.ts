import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { connectMongo, idSequence, insertTokenField, insertWithSequenceId, startEmbeddedMongo, timeOrderedIds, type IdSource } from '@lib/mongo';
import type { CommandStartedEvent } from 'mongodb';
import { Schema, type Connection, type Model } from 'mongoose';
import { cpuMs } from './processes';

/**
 * The two designs of crm ids that reveal nothing of other accounts, measured on the embedded
 * database (docs/RESILIENCE.md "Ids"): time-ordered random ids (what crm uses: no database round
 * trip, a retry on the rare collision) against per-account sequences (a counter document per
 * account and collection, one `$inc` per insert), with the global sequence crm had before as the
 * baseline. Each round inserts the same contact-sized documents from 4 accounts in turn, one at a
 * time, into an emptied collection, the designs interleaved round by round; it reports database
 * commands, this process's CPU, the database process's CPU and the wall time, per insert.
 *
 *   node dist/tools/bench/id-designs.js --rounds 6 --inserts 200
 */
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    inserts: { type: 'string', default: '200' },
  },
});
const ROUNDS = Number(args.rounds);
const INSERTS = Number(args.inserts);
const ACCOUNTS = [101, 102, 103, 104];

interface Doc {
  _id: number;
  account: number;
  properties: Array<{ type: string; name: string; value: string }>;
  created_time: number;
}

const schema = new Schema<Doc>(
  { _id: Number, account: Number, properties: [{ _id: false, type: { type: String }, name: String, value: String }], created_time: Number, ...insertTokenField },
  { versionKey: false },
);
schema.index({ account: 1, created_time: 1, _id: 1 });

const doc = (id: number, account: number, i: number): Doc => ({
  _id: id,
  account,
  properties: [
    { type: 'SYSTEM', name: 'first_name', value: `Person ${i}` },
    { type: 'SYSTEM', name: 'last_name', value: 'Example' },
    { type: 'SYSTEM', name: 'email', value: `person${i}@example.com` },
    { type: 'SYSTEM', name: 'company', value: 'Example Corp' },
  ],
  created_time: Math.floor(Date.now() / 1000),
});

interface Design {
  name: string;
  ids(connection: Connection, account: number): IdSource;
  /** The stored `_id` for the id the source gave (a per-account number needs the account in it to be unique in the collection). */
  storedId(id: number, account: number): number;
}

const DESIGNS: Design[] = [
  { name: 'time-ordered random (crm now)', ids: (connection, account) => timeOrderedIds(connection, `contacts:${account}`), storedId: (id) => id },
  { name: 'per-account sequence', ids: (connection, account) => idSequence(connection, `contacts:${account}`), storedId: (id, account) => account * 2 ** 32 + id },
  { name: 'one global sequence (crm before)', ids: (connection) => idSequence(connection, 'contacts'), storedId: (id) => id },
];

interface Figures {
  commands: number;
  clientCpuMs: number;
  databaseCpuMs: number;
  latenciesMs: number[];
}

async function round(design: Design, connection: Connection, model: Model<Doc>, databasePid: number): Promise<Figures> {
  await model.deleteMany({});
  await connection.collection('counters').deleteMany({});
  let commands = 0;
  const count = (event: CommandStartedEvent) => {
    if (!['hello', 'isMaster', 'ismaster', 'ping'].includes(event.commandName)) commands++;
  };
  const client = connection.getClient();
  const latenciesMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  const databaseBefore = cpuMs(databasePid);
  client.on('commandStarted', count);
  for (let i = 0; i < INSERTS; i++) {
    const account = ACCOUNTS[i % ACCOUNTS.length];
    const started = performance.now();
    await insertWithSequenceId(model, design.ids(connection, account), (id) => doc(design.storedId(id, account), account, i));
    latenciesMs.push(performance.now() - started);
  }
  client.off('commandStarted', count);
  const cpu = process.cpuUsage(cpuBefore);
  return { commands, clientCpuMs: (cpu.user + cpu.system) / 1000, databaseCpuMs: cpuMs(databasePid) - databaseBefore, latenciesMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function main(): Promise<void> {
  const database = await startEmbeddedMongo();
  const connection = await connectMongo({ url: database.uri, dbName: 'id_designs', monitorCommands: true });
  try {
    const model = connection.model<Doc>('IdDesignContact', schema, 'contacts');
    await model.createIndexes();
    await connection.collection('counters').insertOne({ _id: 'warm-up' as never, seq: 0 });
    const results = new Map<Design, Figures[]>(DESIGNS.map((d) => [d, []]));
    for (let r = 0; r < ROUNDS + 1; r++) {
      // the order rotates each round; round 0 warms up and is not counted
      for (let k = 0; k < DESIGNS.length; k++) {
        const design = DESIGNS[(r + k) % DESIGNS.length];
        const figures = await round(design, connection, model, database.pid);
        if (r > 0) results.get(design)?.push(figures);
      }
    }
    console.log(`${ROUNDS} rounds of ${INSERTS} inserts per design (4 accounts in turn, one insert at a time), embedded database\n`);
    console.log('| design | commands per insert | client CPU per insert | database CPU per insert | wall per insert, median | wall per insert, p95 |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const design of DESIGNS) {
      const rounds = results.get(design) ?? [];
      const n = rounds.length * INSERTS;
      const sum = (pick: (f: Figures) => number) => rounds.reduce((total, f) => total + pick(f), 0);
      const latencies = rounds.flatMap((f) => f.latenciesMs);
      console.log(
        `| ${design.name} | ${(sum((f) => f.commands) / n).toFixed(2)} | ${((sum((f) => f.clientCpuMs) / n) * 1000).toFixed(0)} µs | ${((sum((f) => f.databaseCpuMs) / n) * 1000).toFixed(0)} µs | ${median(latencies).toFixed(2)} ms | ${percentile(latencies, 0.95).toFixed(2)} ms |`,
      );
    }
  } finally {
    await connection.close();
    await database.stop();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
