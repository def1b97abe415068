import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface StepResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The final HTTP status of every curl the command ran, in order. */
  statuses: number[];
  timedOut: boolean;
}

/**
 * A `curl` earlier on the PATH than the real one: it runs the real curl with `-D <file>`, so the
 * check learns the status of every request a command makes without changing what it prints.
 */
const CURL_SHIM = `#!/usr/bin/env bash
dir="\${README_CHECK_CURL_DIR:?}"
n=$(ls "$dir" | wc -l)
exec "\${README_CHECK_REAL_CURL:?}" -D "$dir/$(printf %05d "$n")" "$@"
`;

function realCurl(env: NodeJS.ProcessEnv): string {
  const found = spawnSync('sh', ['-c', 'command -v curl'], { env, encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('curl is not installed: the README commands need it');
  return found;
}

/** The final status of each response in a `curl -D` header dump (after redirects and 100 Continue). */
export function finalStatus(headers: string): number | undefined {
  const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => Number(match[1]));
  return statuses.at(-1);
}

/**
 * One bash process that runs commands one at a time, like a user typing a README into one
 * terminal: variables and functions a command defines stay for the next ones. Each command's
 * stdin is /dev/null, its output goes to files read back after it ends.
 */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdoutText = '';
  private count = 0;
  private exited = false;

  constructor(
    private readonly workDir: string,
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ) {
    const bin = path.join(workDir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'curl'), CURL_SHIM);
    chmodSync(path.join(bin, 'curl'), 0o755);
    const env = { ...options.env, README_CHECK_REAL_CURL: realCurl(options.env), PATH: `${bin}:${options.env.PATH ?? ''}` };
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd: options.cwd, env, detached: true });
    this.bash.stdout.on('data', (chunk: Buffer) => (this.stdoutText += chunk.toString()));
    this.bash.stderr.resume();
    this.bash.once('exit', () => (this.exited = true));
    this.bash.stdin.write('set -o pipefail\n');
  }

  async run(command: string, timeoutMs: number): Promise<StepResult> {
    const n = ++this.count;
    const dir = path.join(this.workDir, `step-${n}`);
    const curlDir = path.join(dir, 'curl');
    mkdirSync(curlDir, { recursive: true });
    const marker = `__readme_check_step_${n}_done__`;
    const q = (file: string) => `'${path.join(dir, file)}'`;
    this.bash.stdin.write(
      `export README_CHECK_CURL_DIR='${curlDir}'\n{ ${command}\n} </dev/null >${q('stdout')} 2>${q('stderr')}\necho $? >${q('exit-code')}\necho ${marker}\n`,
    );
    const timedOut = !(await this.waitFor(marker, timeoutMs));
    const read = (file: string) => {
      try {
        return readFileSync(path.join(dir, file), 'utf8');
      } catch {
        return '';
      }
    };
    const statuses = readdirSync(curlDir)
      .sort()
      .map((file) => finalStatus(read(path.join('curl', file))) ?? 0);
    const code = read('exit-code').trim();
    return { exitCode: code === '' ? -1 : Number(code), stdout: read('stdout'), stderr: read('stderr'), statuses, timedOut };
  }

  private async waitFor(marker: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stdoutText.includes(marker)) {
      if (this.exited || Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }

  /** Ends the shell and anything a command left running (its process group). */
  close(): void {
    if (this.exited || this.bash.pid === undefined) return;
    try {
      process.kill(-this.bash.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
