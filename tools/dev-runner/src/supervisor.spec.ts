import type { Restart, RestartPolicy } from './restart-backoff';
import { Supervisor, describeExit, type ChildExit } from './supervisor';

const supervisors: Supervisor[] = [];
// A failed test must not leave children behind.
afterEach(() => Promise.all(supervisors.splice(0).map((s) => s.stopAll())));

/** A supervisor whose children run `node -e code`; printed() waits for a `name stream text` line. */
function harness(graceMs = 5_000, restarts: { policy?: RestartPolicy; upTo?: number } = {}) {
  const lines: string[] = [];
  const unexpected: { name: string; exit: ChildExit; restart: Restart }[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  const supervisor = new Supervisor({
    graceMs,
    output: (name, stream, line) => {
      const entry = `${name} ${stream} ${line}`;
      lines.push(entry);
      waiters.filter((w) => entry.includes(w.text)).forEach((w) => w.resolve());
    },
    restartPolicy: restarts.policy,
    onUnexpectedExit: (name, exit, restart) => {
      unexpected.push({ name, exit, restart });
      return unexpected.length <= (restarts.upTo ?? 0);
    },
  });
  supervisors.push(supervisor);
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      if (lines.some((l) => l.includes(text))) return resolve();
      waiters.push({ text, resolve });
    });
  const start = (name: string, code: string, env: NodeJS.ProcessEnv = {}) =>
    supervisor.start({ name, args: ['-e', code], env: { ...process.env, ...env } });
  return { supervisor, lines, unexpected, printed, start };
}

const untilExit = (supervisor: Supervisor) =>
  new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (supervisor.running().length === 0) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });

describe('Supervisor', () => {
  it('forwards each output line with the child name and stream, passing the env', async () => {
    const { supervisor, lines, start } = harness();
    start('echo', 'console.log("hello " + process.env.WHO + "\\nsecond"); console.error("oops")', { WHO: 'world' });
    await untilExit(supervisor);
    await supervisor.stopAll();
    expect(lines).toEqual(expect.arrayContaining(['echo stdout hello world', 'echo stdout second', 'echo stderr oops']));
    expect(lines).toHaveLength(3);
  });

  it('reports a child that ends on its own, after its last output', async () => {
    const { supervisor, lines, unexpected, start } = harness();
    start('crasher', 'console.error("fatal: boom"); process.exit(3)');
    await untilExit(supervisor);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unexpected).toEqual([{ name: 'crasher', exit: { code: 3, signal: null }, restart: { delayMs: 1_000, attempt: 1 } }]);
    expect(lines).toContain('crasher stderr fatal: boom');
    expect(describeExit(unexpected[0].exit)).toBe('exited with code 3');
  });

  it('stops children with SIGTERM and lets them finish, without reporting them as unexpected', async () => {
    const { supervisor, lines, unexpected, printed, start } = harness();
    const graceful = 'process.on("SIGTERM", () => { console.log("draining"); setTimeout(() => process.exit(0), 100); }); console.log("up"); setInterval(() => {}, 1000);';
    start('a', graceful);
    start('b', graceful);
    await printed('a stdout up');
    await printed('b stdout up');
    expect(supervisor.running()).toEqual(['a', 'b']);

    const stopped = await supervisor.stopAll();
    expect(stopped).toEqual([
      { name: 'a', exit: { code: 0, signal: null }, forced: false },
      { name: 'b', exit: { code: 0, signal: null }, forced: false },
    ]);
    expect(lines).toEqual(expect.arrayContaining(['a stdout draining', 'b stdout draining']));
    expect(unexpected).toEqual([]);
    expect(supervisor.running()).toEqual([]);
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const { supervisor, printed, start } = harness(300);
    start('stubborn', 'process.on("SIGTERM", () => console.log("ignoring")); console.log("up"); setInterval(() => {}, 1000);');
    await printed('up');
    const started = Date.now();
    const [stopped] = await supervisor.stopAll();
    expect(stopped).toEqual({ name: 'stubborn', exit: { code: null, signal: 'SIGKILL' }, forced: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(describeExit(stopped.exit)).toBe('was killed by SIGKILL');
  });

  it('restarts a child that dies, waiting longer after each exit in a row', async () => {
    const policy = { initialDelayMs: 150, maxDelayMs: 400, resetAfterMs: 60_000 };
    const { supervisor, lines, unexpected, start } = harness(5_000, { policy, upTo: 3 });
    start('flaky', 'console.log("up " + Date.now()); setTimeout(() => process.exit(3), 50)');
    while (!(unexpected.length === 4 && supervisor.running().length === 0)) await new Promise((resolve) => setTimeout(resolve, 10));
    // each child prints when it started: restarts are spaced by at least the run (50 ms) plus the back-off
    const ups = lines.filter((l) => l.startsWith('flaky stdout up ')).map((l) => Number(l.split(' ').at(-1)));
    // started once, restarted three times (the fourth exit was not restarted: the callback said no)
    expect(ups).toHaveLength(4);
    expect(unexpected.map((u) => u.restart)).toEqual([
      { delayMs: 150, attempt: 1 },
      { delayMs: 300, attempt: 2 },
      { delayMs: 400, attempt: 3 },
      { delayMs: 400, attempt: 4 },
    ]);
    expect(unexpected.every((u) => u.name === 'flaky' && u.exit.code === 3)).toBe(true);
    expect(ups[1] - ups[0]).toBeGreaterThanOrEqual(150 + 50);
    expect(ups[2] - ups[1]).toBeGreaterThanOrEqual(300 + 50);
    expect(ups[3] - ups[2]).toBeGreaterThanOrEqual(400 + 50);
  });

  it('drops a pending restart when stopping', async () => {
    const { supervisor, lines, unexpected, start } = harness(5_000, { policy: { initialDelayMs: 60_000, maxDelayMs: 60_000, resetAfterMs: 60_000 }, upTo: 1 });
    start('crasher', 'console.log("up"); process.exit(4)');
    await untilExit(supervisor);
    while (unexpected.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = await supervisor.stopAll();
    expect(stopped).toEqual([{ name: 'crasher', exit: { code: 4, signal: null }, forced: false }]);
    expect(lines.filter((l) => l.endsWith('up'))).toHaveLength(1);
    expect(supervisor.running()).toEqual([]);
  });

  it('refuses to start children once stopping', async () => {
    const { supervisor, start } = harness();
    await supervisor.stopAll();
    expect(() => start('late', 'setInterval(() => {}, 1000)')).toThrow('not starting late: shutting down');
    expect(supervisor.running()).toEqual([]);
  });
});
