import { useReplicas } from './use-replicas';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('replica harness', () => {
  const replicas = useReplicas({ entry: 'libs/testing/src/replicas/fixture-main.ts', replicas: 3 });

  const pidOf = async (agent: ReturnType<typeof replicas.next>) => {
    const res = await agent.get('/pid').expect(200);
    return res.body.pid as number;
  };

  it('runs each replica as its own process, reached in turn by the round-robin client', async () => {
    const own = await Promise.all([0, 1, 2].map((i) => pidOf(replicas.replica(i))));
    expect(new Set(own).size).toBe(3);
    expect(own).not.toContain(process.pid);
    const rotated = [];
    for (let i = 0; i < 6; i++) rotated.push(await pidOf(replicas.next()));
    expect(new Set(rotated.slice(0, 3))).toEqual(new Set(own));
    expect(rotated.slice(3)).toEqual(rotated.slice(0, 3));
  });

  it('kills one replica while the others keep serving, and restarts it', async () => {
    const before = await pidOf(replicas.replica(1));
    const status = await replicas.kill(1);
    expect(status.signal).toBe('SIGKILL');
    expect(isAlive(before)).toBe(false);
    await replicas.replica(0).get('/readyz').expect(200);
    await replicas.replica(2).get('/readyz').expect(200);

    await replicas.restart(1);
    const after = await pidOf(replicas.replica(1));
    expect(after).not.toBe(before);
  });

  it("serves node's process metrics, which startOrExit (the process entry) starts", async () => {
    const text = (await replicas.replica(0).get('/metrics').expect(200)).text;
    for (const name of ['process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'nodejs_eventloop_lag_seconds']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('stops every replica: no process is left', async () => {
    const pids = await Promise.all([0, 1, 2].map((i) => pidOf(replicas.replica(i))));
    await replicas.stop();
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
