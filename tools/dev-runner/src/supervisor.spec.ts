import { Supervisor, describeExit, type ChildExit } from './supervisor';

const supervisors: Supervisor[] = [];
// A failed test must not leave children behind.
afterEach(() => Promise.all(supervisors.splice(0).map((s) => s.stopAll())));

/** A supervisor whose children run `node -e code`; printed() waits for a `name stream text` line. */
function harness(graceMs = 5_000) {
  const lines: string[] = [];
  const unexpected: { name: string; exit: ChildExit }[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  const supervisor = new Supervisor({
    graceMs,
    output: (name, stream, line) => {
      const entry = `${name} ${stream} ${line}`;
      lines.push(entry);
      waiters.filter((w) => entry.includes(w.text)).forEach((w) => w.resolve());
    },
    onUnexpectedExit: (name, exit) => unexpected.push({ name, exit }),
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
    expect(unexpected).toEqual([{ name: 'crasher', exit: { code: 3, signal: null } }]);
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

  it('refuses to start children once stopping', async () => {
    const { supervisor, start } = harness();
    await supervisor.stopAll();
    expect(() => start('late', 'setInterval(() => {}, 1000)')).toThrow('not starting late: shutting down');
    expect(supervisor.running()).toEqual([]);
  });
});
