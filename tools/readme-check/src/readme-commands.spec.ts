import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REFUSED_SHELL_LANGUAGES } from './markdown-blocks';
import { mismatch, parsePattern } from './pattern';
import { blocksOf, readmeFiles, stepsOf } from './readmes';
import { ShellSession } from './shell-session';
import { cleanEnv, startStack, withPorts, type Stack } from './stack';
import type { Step } from './steps';

const root = path.resolve(__dirname, '..', '..', '..');
const STACK_START_MS = 180_000;
// `npm run crm:admin` runs `nx build crm-api` first: seconds when cached, more on a loaded machine.
const STEP_MS = 150_000;

const workDir = mkdtempSync(path.join(tmpdir(), 'readme-check-'));
let stack: Stack | undefined;
const startedAt = Date.now();
/** How long each command took, for the closing line (the slowest say where the time goes). */
const durations: { where: string; ms: number }[] = [];

beforeAll(async () => {
  stack = await startStack(root, workDir, STACK_START_MS);
}, STACK_START_MS + 35_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(workDir, { recursive: true, force: true });
  const slowest = [...durations].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(
    `README commands: ${durations.length} in ${Math.round((Date.now() - startedAt) / 1000)} s, stack start included; slowest: ` +
      slowest.map(({ where, ms }) => `${where} ${(ms / 1000).toFixed(1)} s`).join(', '),
  );
}, 40_000);

const firstLine = (step: Step) => {
  const line = step.command.split('\n')[0];
  return line.length > 90 ? `${line.slice(0, 87)}...` : line;
};

function describeFailure(step: Step, command: string, result: Awaited<ReturnType<ShellSession['run']>>, problem: string): string {
  return [
    `${step.file}:${step.line}: ${problem}`,
    `command (ports moved to the test stack's):\n${command}`,
    `exit code ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}; HTTP statuses: ${result.statuses.join(', ') || 'none'}`,
    `stdout:\n${result.stdout.slice(0, 3000)}`,
    `stderr:\n${result.stderr.slice(0, 3000)}`,
    `the stack's last output lines:\n${stack?.output().split('\n').slice(-15).join('\n')}`,
  ].join('\n');
}

describe('README code blocks', () => {
  it.each(readmeFiles(root))('%s runs shell commands only from ```sh blocks (shown-only ones are ```console)', (file) => {
    const misnamed = blocksOf(root, file).filter((block) => REFUSED_SHELL_LANGUAGES.includes(block.language));
    expect(misnamed.map((block) => `${file}:${block.line} \`\`\`${block.language}`)).toEqual([]);
  });
});

describe.each(readmeFiles(root).filter((file) => stepsOf(root, file).length > 0))('%s, its ```sh blocks in order on a fresh stack', (file) => {
  let session: ShellSession | undefined;
  let broken: string | undefined;

  beforeAll(() => {
    session = new ShellSession(path.join(workDir, file.replace(/\W+/g, '-')), {
      cwd: root,
      env: { ...cleanEnv(process.env), MONGO_URL: stack!.mongoUrl, NX_DAEMON: 'false', FORCE_COLOR: '0' },
    });
  });
  afterAll(() => session?.close());

  const steps = stepsOf(root, file);
  it.each(steps.map((step) => [`${step.line}: ${firstLine(step)}`, step] as const))('%s', async (_name, step) => {
    if (broken) throw new Error(`${step.file}:${step.line}: not run, an earlier command of this file did not end: ${broken}`);
    const command = withPorts(step.command, stack!.ports);
    const began = Date.now();
    const result = await session!.run(command, STEP_MS);
    durations.push({ where: `${step.file}:${step.line}`, ms: Date.now() - began });
    if (result.timedOut) {
      broken = `${step.file}:${step.line}`;
      session!.close();
    }
    const fail = (problem: string) => {
      throw new Error(describeFailure(step, command, result, problem));
    };
    if (result.timedOut) fail(`did not end within ${STEP_MS / 1000} s`);
    if (result.exitCode !== 0) fail(`exit code ${result.exitCode}`);
    const expected = step.expect;
    const last = result.statuses.length - 1;
    result.statuses.forEach((status, index) => {
      if (index === last && expected?.status !== undefined) {
        if (status !== expected.status) fail(`the README shows ${expected.status}, the answer was ${status}`);
      } else if (status >= 400 || status === 0) {
        fail(`a request answered ${status}${expected?.status === undefined ? ' (the README shows no error status for it)' : ''}`);
      }
    });
    if (expected?.status !== undefined && result.statuses.length === 0) fail(`the README shows status ${expected.status}, but the command made no HTTP request`);
    if (expected?.body !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(result.stdout);
      } catch {
        fail('the README shows a JSON answer, the output is not JSON');
      }
      const found = mismatch(parsePattern(expected.body), body);
      if (found) fail(`the answer differs from the README's: ${found}`);
    }
  }, STEP_MS + 5_000);
});
