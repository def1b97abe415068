import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { codeBlocks, RUN_LANGUAGE, type CodeBlock } from './markdown-blocks';
import { splitSteps, type Step } from './steps';

/**
 * The READMEs whose ```sh blocks run, in the order they run: the top README, then each app's in
 * alphabetical order. Each file runs in a shell of its own (variables do not carry over between
 * files) against the one stack, so a README may use what it made itself, never another's data.
 */
export function readmeFiles(root: string): string[] {
  const apps = readdirSync(path.join(root, 'apps'))
    .sort()
    .map((app) => path.join('apps', app, 'README.md'))
    .filter((file) => existsSync(path.join(root, file)));
  return ['README.md', ...apps];
}

export function blocksOf(root: string, file: string): CodeBlock[] {
  return codeBlocks(readFileSync(path.join(root, file), 'utf8'), file);
}

export function stepsOf(root: string, file: string): Step[] {
  return blocksOf(root, file)
    .filter((block) => block.language === RUN_LANGUAGE)
    .flatMap((block) => splitSteps(block));
}
