import { spawnSync } from 'node:child_process';
import path from 'node:path';

export interface LintProblem {
  severity: 'error' | 'warn';
  rule: string;
  message: string;
  at?: string;
}

/** `redocly lint` (recommended rules) of an OpenAPI document: every error and warning, each as "rule at: message". */
export function lintOpenApi(document: unknown): LintProblem[] {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'redocly-lint.mjs')], { input: JSON.stringify(document), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`redocly lint failed to run: ${run.stderr}`);
  return JSON.parse(run.stdout) as LintProblem[];
}

/** A problem the document is known to have and cannot lose, with the reason; it must still be reported (so the list cannot go stale). */
export interface AcceptedProblem {
  rule: string;
  at: string;
  why: string;
}

/** The problems `lintOpenApi` finds beyond the accepted ones, plus a line for each accepted one it no longer finds. */
export function unexpectedProblems(document: unknown, accepted: AcceptedProblem[] = []): string[] {
  const problems = lintOpenApi(document);
  const isAccepted = (p: LintProblem) => accepted.some((a) => a.rule === p.rule && a.at === p.at);
  const stale = accepted.filter((a) => !problems.some((p) => a.rule === p.rule && a.at === p.at)).map((a) => `accepted but no longer reported: ${a.rule} ${a.at}`);
  return [...problems.filter((p) => !isAccepted(p)).map(describeProblem), ...stale];
}

export const describeProblem = (p: LintProblem) => `${p.severity} ${p.rule} ${p.at ?? ''}: ${p.message}`;
