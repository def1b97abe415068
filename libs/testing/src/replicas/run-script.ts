import { spawn } from 'node:child_process';
import { bundleEntry } from './bundle';

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an entry file (e.g. `apps/crm-api/src/admin.ts`) as its own process, bundled like the
 * replicas, and returns its exit code and output. Killed if it runs longer than timeoutMs.
 */
export async function runScript(entry: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<ScriptResult> {
  const script = await bundleEntry(entry);
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  });
  clearTimeout(timer);
  return { code, stdout, stderr };
}
