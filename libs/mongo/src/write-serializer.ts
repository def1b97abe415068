import net from 'node:net';
import { mongo } from 'mongoose';

/**
 * A loopback proxy in front of the embedded server that lets one write command at a time reach it.
 *
 * The embedded server runs each connection on its own thread, and its `findAndModify` finds and
 * then updates in two steps: two connections can both match `{rev: 0}` and both apply, or both
 * `$inc` a counter to the same value (measured: 50 parallel `$inc`s gave a repeated value in 122 of
 * 200 rounds; 2 conditional updates both applied in 6 of 200). MongoDB does each such write
 * atomically, and the code relies on it; serializing writes gives the embedded lane the same
 * guarantee. Reads are not held back.
 *
 * The wire protocol is framed by a 16-byte header (length, requestID, responseTo, opCode). A write
 * is an OP_MSG whose command (the first key of its body) is listed below; it is held until the
 * reply naming its requestID comes back (or the connection ends). Anything the proxy cannot read
 * as a command (another opCode, a compressed message) counts as a write.
 *
 * Transactions: the embedded server isolates a transaction's writes until it commits, but detects
 * no conflicts, and its commit writes the transaction's version of each document over whatever
 * was written meanwhile (measured: a `$inc` made outside an open transaction on the same document
 * was lost at its commit, as was another transaction's). MongoDB refuses such a conflicting write
 * (WriteConflict) instead. So a transaction holds the write lock from its first command
 * (`startTransaction`) until the reply to its `commitTransaction` or `abortTransaction`: its
 * commands pass (on any connection), other writes wait, and a transaction runs on the state its
 * commit is applied to, as if transactions were serializable. A transaction whose client went away
 * (a connection that carried it closed) or that stays open past TRANSACTION_HOLD_MS is aborted on
 * the server before it lets go: the driver retries a commit cut off by the network on a new
 * connection, and that commit, applied after other writes had run, would write over them (MongoDB
 * refuses it instead: the transaction is aborted, or conflicts).
 */

const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'bulkWrite',
  'createIndexes',
  'dropIndexes',
  'drop',
  'dropDatabase',
  'create',
  'commitTransaction',
  'abortTransaction',
]);
/** Longest time one transaction holds the write lock (an abandoned one must not stop every write). */
export const TRANSACTION_HOLD_MS = 10_000;
/** Longest wait for the server's answer to the abort of an abandoned transaction before the lock goes (a stalled server). */
const ABORT_WAIT_MS = 5_000;
const READ_ONLY_OPCODES = new Set([2004 /* OP_QUERY: the legacy handshake */]);
const OP_MSG = 2013;
const MORE_TO_COME = 2;
const HEADER = 16;

export interface WriteSerializer {
  /** The server's URL with the proxy's address in place of the server's. */
  uri: string;
  close(): Promise<void>;
}

/** Splits a byte stream into wire-protocol messages; a length shorter than the header ends the stream (`onInvalid`). */
function messageReader(onMessage: (message: Buffer) => void, onInvalid: () => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4) {
      const length = pending.readInt32LE(0);
      if (length < HEADER) return onInvalid();
      if (pending.length < length) return;
      onMessage(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  };
}

function isWrite(message: Buffer): boolean {
  const opCode = message.readInt32LE(12);
  if (READ_ONLY_OPCODES.has(opCode)) return false;
  // OP_MSG: flagBits (4), then section kind 0 (1), the body's length (4), the first element's type (1) and name
  if (opCode !== OP_MSG || message.length < HEADER + 11 || message[HEADER + 4] !== 0) return true;
  const nameStart = HEADER + 10;
  const nameEnd = message.indexOf(0, nameStart);
  return nameEnd < 0 || WRITE_COMMANDS.has(message.toString('latin1', nameStart, nameEnd));
}

/** A command of a transaction: its session and number, and whether it starts or ends it. */
interface TransactionCommand {
  key: string;
  starts: boolean;
  ends: boolean;
  /** What names it to the server (for an abort of our own). */
  session: { lsid: mongo.BSON.Document; txnNumber: unknown };
}

/** The transaction an OP_MSG command belongs to (it carries `txnNumber` and `autocommit: false`), if any. */
function transactionOf(message: Buffer): TransactionCommand | undefined {
  if (message.readInt32LE(12) !== OP_MSG || message[HEADER + 4] !== 0 || message.indexOf('autocommit', HEADER) < 0) return undefined;
  const length = message.readInt32LE(HEADER + 5);
  let body: mongo.BSON.Document;
  try {
    body = mongo.BSON.deserialize(message.subarray(HEADER + 5, HEADER + 5 + length));
  } catch {
    return undefined;
  }
  if (body.autocommit !== false || body.txnNumber === undefined || !body.lsid?.id) return undefined;
  const name = Object.keys(body)[0];
  return {
    key: `${Buffer.from(body.lsid.id.buffer as Uint8Array).toString('hex')}:${String(body.txnNumber)}`,
    starts: body.startTransaction === true,
    ends: name === 'commitTransaction' || name === 'abortTransaction',
    session: { lsid: body.lsid, txnNumber: body.txnNumber },
  };
}

/** An OP_MSG asking the server to abort the transaction (with a requestID of its own). */
function abortMessage({ lsid, txnNumber }: TransactionCommand['session'], requestId: number): Buffer {
  const body = mongo.BSON.serialize({ abortTransaction: 1, lsid, txnNumber, autocommit: false, $db: 'admin' });
  const header = Buffer.alloc(HEADER + 5);
  header.writeInt32LE(HEADER + 5 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, HEADER);
  header[HEADER + 4] = 0;
  return Buffer.concat([header, body]);
}

/** One write at a time, first come first served. */
function writeLock() {
  let tail = Promise.resolve();
  return (): Promise<() => void> => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const acquired = tail.then(() => release);
    tail = tail.then(() => held);
    return acquired;
  };
}

/** Starts the proxy on a free loopback port, in front of the server at `serverUri` (a `mongodb://host:port/…` URL). */
export function serializeWrites(serverUri: string): Promise<WriteSerializer> {
  const server = new URL(serverUri);
  const acquire = writeLock();
  const sockets = new Set<net.Socket>();
  // open transactions holding the lock: the lock's release, the client sockets that carried them, the hold limit
  // `sent`: a command of it reached the server (else the server knows nothing to abort)
  const transactions = new Map<string, { release: () => void; carriers: Set<net.Socket>; timer: NodeJS.Timeout; session: TransactionCommand['session']; sent: boolean }>();
  const endTransaction = (key: string) => {
    const open = transactions.get(key);
    if (!open) return;
    transactions.delete(key);
    clearTimeout(open.timer);
    open.release();
  };
  /** Ends a transaction its client left (or held too long): aborted on the server first, then the lock goes. */
  const abandonTransaction = (key: string) => {
    const open = transactions.get(key);
    if (!open) return;
    transactions.delete(key);
    clearTimeout(open.timer);
    if (!open.sent) return open.release();
    abortOnServer(open.session).finally(open.release);
  };
  let abortRequests = 0;
  const abortOnServer = (session: TransactionCommand['session']) =>
    new Promise<void>((resolve) => {
      const requestId = 0x7fff0000 + (abortRequests++ % 0xffff);
      const socket = net.connect(Number(server.port), server.hostname);
      sockets.add(socket);
      const timer = setTimeout(done, ABORT_WAIT_MS);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      socket.on('connect', () => socket.write(abortMessage(session, requestId)));
      // the answer (an error when the transaction had committed or was unknown: nothing to undo) ends the wait
      socket.on(
        'data',
        messageReader(
          (message) => {
            if (message.readInt32LE(8) === requestId) socket.end();
          },
          () => socket.destroy(),
        ),
      );
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        done();
      });
    });
  const beginTransaction = async (txn: TransactionCommand, client: net.Socket) => {
    const release = await acquire();
    const timer = setTimeout(() => abandonTransaction(txn.key), TRANSACTION_HOLD_MS);
    timer.unref();
    transactions.set(txn.key, { release, carriers: new Set([client]), timer, session: txn.session, sent: false });
  };

  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(server.port), server.hostname);
    sockets.add(client).add(upstream);
    // the write waiting for its reply: its requestID and the lock's release
    let inFlight: { requestId: number; release: () => void; transaction?: string } | undefined;
    let queue = Promise.resolve();
    const releaseInFlight = () => {
      inFlight?.release();
      inFlight = undefined;
    };
    const end = () => {
      // a commit or abort cut off before its answer: the server may not have run it, so it is decided by our abort
      if (inFlight?.transaction) abandonTransaction(inFlight.transaction);
      else releaseInFlight();
      inFlight = undefined;
      for (const [key, open] of transactions) if (open.carriers.has(client)) abandonTransaction(key);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };

    // messages from the client go upstream in order; a write waits for the lock first
    client.on(
      'data',
      messageReader((message) => {
        queue = queue.then(async () => {
          const txn = transactionOf(message);
          if (txn && (txn.starts || transactions.has(txn.key))) {
            if (txn.starts && !transactions.has(txn.key)) await beginTransaction(txn, client);
            const open = transactions.get(txn.key);
            open?.carriers.add(client);
            if (upstream.destroyed) return abandonTransaction(txn.key);
            if (txn.ends && open) inFlight = { requestId: message.readInt32LE(4), release: () => endTransaction(txn.key), transaction: txn.key };
            if (open) open.sent = true;
            return void upstream.write(message);
          }
          if (!isWrite(message)) return void upstream.write(message);
          const release = await acquire();
          if (upstream.destroyed) return release();
          const expectsReply = message.readInt32LE(12) !== OP_MSG || (message.readUInt32LE(HEADER) & MORE_TO_COME) === 0;
          if (expectsReply) inFlight = { requestId: message.readInt32LE(4), release };
          upstream.write(message);
          if (!expectsReply) release();
        });
      }, end),
    );
    upstream.on(
      'data',
      messageReader((message) => {
        if (inFlight && message.readInt32LE(8) === inFlight.requestId) releaseInFlight();
        client.write(message);
      }, end),
    );
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });

  return new Promise((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as net.AddressInfo;
      resolve({
        uri: serverUri.replace(`${server.hostname}:${server.port}`, `127.0.0.1:${port}`),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            proxy.close(() => done());
          }),
      });
    });
  });
}
