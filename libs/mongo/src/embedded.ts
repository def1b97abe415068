import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { serializeWrites, type WriteSerializer } from './write-serializer';

const BINARY_PACKAGE = '@jongodb/memory-server-bin-linux-x64-gnu';
const READY = /JONGODB_URI=(\S+)/;
const FAILURE = /JONGODB_START_FAILURE=(.*)/;

export interface EmbeddedMongo {
  uri: string;
  stop(): Promise<void>;
}

/** What startEmbeddedMongo gives: also the server's process id (fault tests stall it with SIGSTOP). */
export interface EmbeddedProcess extends EmbeddedMongo {
  pid: number;
}

function binaryPath(): string {
  let manifest: string;
  try {
    manifest = require.resolve(`${BINARY_PACKAGE}/package.json`);
  } catch {
    throw new Error(
      `The embedded database (${BINARY_PACKAGE}) is not installed for ${process.platform}-${process.arch}. ` +
        'Run npm ci on Linux x64, or set MONGO_URL to a MongoDB server.',
    );
  }
  return path.join(path.dirname(manifest), 'bin', 'jongodb');
}

/**
 * Starts the embedded, in-memory MongoDB-compatible server (a native binary shipped in an npm
 * package, nothing downloaded). Data lives only as long as the process. Clients reach it through a
 * proxy in this process that lets one write at a time through (see write-serializer.ts), and
 * `pid` is the server's own process.
 */
export function startEmbeddedMongo(options: { port?: number; timeoutMs?: number; ownProcessGroup?: boolean } = {}): Promise<EmbeddedProcess> {
  const { port = 0, timeoutMs = 20_000 } = options;
  const child: ChildProcess = spawn(binaryPath(), ['--host=127.0.0.1', `--port=${port}`, '--database=test'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // out of the terminal's process group, a Ctrl-C reaches only the caller, which stops the
    // server after its apps have drained
    detached: options.ownProcessGroup ?? false,
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let serializer: WriteSerializer | undefined;

  const stopServer = () =>
    new Promise<void>((resolve) => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const stop = async () => {
    await serializer?.close();
    await stopServer();
  };

  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`embedded database failed to start: ${message}`));
    };
    const timer = setTimeout(() => fail(`no ready signal after ${timeoutMs} ms; output: ${output.slice(-500)}`), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const failure = FAILURE.exec(output);
      if (failure) return fail(failure[1]);
      const ready = READY.exec(output);
      if (ready) {
        clearTimeout(timer);
        child.stdout?.removeListener('data', onData);
        child.stdout?.resume();
        // The server prints a URL ending in its default database; callers pick their own.
        const uri = ready[1].replace(/\/[^/?]*(\?.*)?$/, '/$1');
        serializeWrites(uri).then((started) => {
          serializer = started;
          resolve({ uri: started.uri, pid: child.pid!, stop });
        }, (err: Error) => fail(`the write serializer did not start: ${err.message}`));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal}); output: ${output.slice(-500)}`));
  });
}
