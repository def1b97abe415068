import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundleFile, REPO_ROOT } from '../esbuild-bundle';
import { freePort } from '@lib/services';

/**
 * Bundles an app like its `nx build` target does (esbuild, CommonJS, node_modules left external),
 * into `outdir`. Returns the bundle and the packages it requires at run time.
 */
export function bundleApp(name: string, outdir: string): Promise<{ main: string; packages: string[] }> {
  return bundleProject(path.join('apps', name), outdir);
}

/** Bundles the `src/main.ts` of a project folder (`apps/news-api`, `tools/gateway`) the same way. */
export async function bundleProject(project: string, outdir: string): Promise<{ main: string; packages: string[] }> {
  const main = path.join(outdir, 'main.js');
  const packages = await bundleFile(path.join(REPO_ROOT, project, 'src', 'main.ts'), main, { tsconfig: path.join(REPO_ROOT, project, 'tsconfig.json') });
  return { main, packages };
}

export interface AppProcess {
  port: number;
  child: ChildProcess;
  /** Everything the process printed. */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

/** Starts `node <nodeFlags> <main>` on a free port with `env`, and waits for `/readyz` 200. */
export async function startAppProcess(main: string, env: Record<string, string>, nodeFlags: readonly string[]): Promise<AppProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [...nodeFlags, main], {
      env: { PATH: process.env.PATH ?? '', NODE_PATH: path.join(REPO_ROOT, 'node_modules'), ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const alive = () => child.exitCode === null && child.signalCode === null;
    const deadline = Date.now() + 30_000;
    while (alive() && Date.now() < deadline) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) {
        return {
          port,
          child,
          output: () => output,
          alive,
          stop: async () => {
            if (alive()) child.kill('SIGTERM');
            await exited;
          },
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (alive()) child.kill('SIGKILL');
    if (attempt >= 3 || !output.includes('EADDRINUSE')) throw new Error(`the app did not become ready:\n${output.slice(-3000)}`);
  }
}
