import { readFileSync } from 'node:fs';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Dockerfile instructions by stage, continuation lines joined and comments dropped. */
export function readDockerfile(file: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [, from, name] = /^(\S+)(?: AS (\S+))?$/i.exec(instruction.args) ?? [];
      stages.push({ from, name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value] = instruction.args.split('=');
      args[name] = value;
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return { args, stages };
}

/** The variables a stage's ENV instructions set (`KEY=value`, `KEY="two words"`), later ones winning. */
export function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.instructions.filter((i) => i.keyword === 'ENV')) {
    for (const [, key, quoted, plain] of args.matchAll(/(\w+)=(?:"([^"]*)"|(\S*))/g)) env[key] = quoted ?? plain;
  }
  return env;
}
