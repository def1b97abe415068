import { spawnSync } from 'node:child_process';
import type { CodeBlock } from './markdown-blocks';

/** What a README shows a command answers: `# 201 {"id":1,…}`, `# 204`, `# [{"id":2,…}]`. */
export interface Expectation {
  /** HTTP status of the command's last curl. */
  status?: number;
  /** A JSON pattern (see pattern.ts) the command's output must match. */
  body?: string;
}

/** One command of a block (possibly several lines), with the answer the README shows for it. */
export interface Step {
  file: string;
  /** 1-based line of the command in its file. */
  line: number;
  command: string;
  expect?: Expectation;
}

const EXPECTATION = /^#\s+(?:(\d{3})(?:\s+|$))?(.*)$/;

/** `# 201 …`, `# {…}` or `# […]` right after a command; any other comment is prose. */
export function parseExpectation(comment: string): Expectation | undefined {
  const match = EXPECTATION.exec(comment.trim());
  if (!match) return undefined;
  const status = match[1] ? Number(match[1]) : undefined;
  const rest = match[2].trim();
  const body = /^[[{]/.test(rest) ? rest : undefined;
  if (status === undefined && body === undefined) return undefined;
  return { status, body };
}

/** True when `text` is a complete shell command list (no open quote, loop or continuation). */
export function bashSyntaxComplete(text: string): boolean {
  if (/\\$/.test(text)) return false;
  return spawnSync('bash', ['-n'], { input: text, stdio: ['pipe', 'ignore', 'ignore'] }).status === 0;
}

/** Splits a ```sh block into commands, each with the expectation comment that follows it. */
export function splitSteps(block: CodeBlock, isComplete: (text: string) => boolean = bashSyntaxComplete): Step[] {
  const steps: Step[] = [];
  const lines = block.text.split('\n');
  let pending: { line: number; lines: string[] } | undefined;
  lines.forEach((text, index) => {
    const line = block.line + 1 + index;
    if (!pending) {
      if (text.trim() === '') return;
      if (text.trim().startsWith('#')) {
        const expectation = parseExpectation(text);
        const last = steps.at(-1);
        if (expectation && last && !last.expect) last.expect = expectation;
        return;
      }
      pending = { line, lines: [] };
    }
    pending.lines.push(text);
    const command = pending.lines.join('\n');
    if (isComplete(command)) {
      steps.push({ file: block.file, line: pending.line, command });
      pending = undefined;
    }
  });
  if (pending) throw new Error(`${block.file}:${pending.line}: the command never ends (an open quote or a trailing backslash)`);
  return steps;
}
