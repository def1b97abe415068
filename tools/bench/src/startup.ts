import { spawn } from 'node:child_process';
import { SERVICES } from '@lib/services';
import { freePort } from '@lib/services';
import { waitReady } from './processes';

/**
 * Time from `npm start` (build step included, usually cached) to every service answering
 * `/readyz` 200, on free ports so as not to collide with anyone's running `npm start`.
 */
export async function measureStartup(root: string, apps: string[]): Promise<{ totalMs: number; perApp: Record<string, number> }> {
  const env: Record<string, string> = { GATEWAY_PORT: String(await freePort()) };
  const ports: Record<string, number> = {};
  for (const service of SERVICES) {
    const port = await freePort();
    env[service.portEnv] = String(port);
    ports[service.name] = port;
  }
  const started = Date.now();
  const child = spawn('npm', ['start'], { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`npm start exited (${signal ?? `code ${code}`}) before every service was ready`)));
  try {
    const perApp: Record<string, number> = {};
    const ready = Promise.all(
      apps.map(async (app) => {
        await waitReady(ports[app], 120_000);
        perApp[app] = Date.now() - started;
      }),
    );
    await Promise.race([ready, exited.then((why) => Promise.reject(new Error(why)))]);
    return { totalMs: Date.now() - started, perApp };
  } finally {
    // our own process group: npm, the dev runner, its services and its embedded database (gone already if npm start exited)
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      } catch {
        // ESRCH: the group ended between the check and the kill
      }
    }
  }
}
