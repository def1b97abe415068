#!/usr/bin/env node
// Lists the file names that docs and code comments give and that name no file of the repository.
// Usage: node tools/scripts/check-paths.js <files…>, e.g. docs/ARCHITECTURE.md, or
// $(git ls-files '*.ts') for the comments of the code. In Markdown it reads `backticked` names; in
// code, file names (with an extension) in comments. A name is found when it exists from the repository
// root, from the file's folder, from its project's root or src/ folder, or, for a bare file name
// (`route.ts`), anywhere in the repository. Exits 1 when any is missing. Names of files a program
// writes, of other packages' files, or in URLs are listed too: read the list, it is not a verdict.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const basenames = new Set(tracked.map((f) => path.basename(f)));
const folders = new Set(tracked.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

const EXTENSIONS = 'ts|js|cjs|mjs|md|json|yaml|yml|sh';
const PATH_LIKE = new RegExp(`^(?:[\\w.@-]+/)*[\\w.@-]+(?:\\.(?:${EXTENSIONS})|/)$`);
const IN_COMMENT = new RegExp(`(?:[\\w.@-]+/)+[\\w.@-]*|[\\w-]+(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS})\\b`, 'g');

/** Whether a name a file gives names something in the repository. */
function found(name, file) {
  const clean = name.replace(/[/.]+$/, (tail) => (tail.endsWith('/') ? '' : tail)).replace(/\/$/, '');
  // URLs, node's modules, the libs' import names, and the build's output (dist/, made by a build)
  if (!clean || /^https?:|^node:|^@lib\/|^dist\/|^\.\.?$/.test(clean)) return true;
  const project = file.match(/^((?:apps|libs|tools)\/[^/]+)\//)?.[1];
  const bases = [root, path.join(root, path.dirname(file)), ...(project ? [path.join(root, project), path.join(root, project, 'src')] : [])];
  if (bases.some((base) => existsSync(path.join(base, clean)))) return true;
  if (!clean.includes('/')) return basenames.has(clean) || folders.has(clean) || [...folders].some((f) => f.endsWith(`/${clean}`));
  return [...folders].some((f) => f.endsWith(`/${path.dirname(clean)}`) && existsSync(path.join(root, f, path.basename(clean))));
}

function namesInMarkdown(text) {
  const names = [];
  for (const [, code] of text.matchAll(/`([^`\n]+)`/g)) if (PATH_LIKE.test(code) && !/[<>*{}]/.test(code)) names.push(code);
  return names;
}

/** File names in comments: names with an extension, not part of a URL or a glob (`*.spec.ts`). */
function namesInComments(text) {
  const comments = text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
  return comments.flatMap((comment) =>
    [...comment.matchAll(IN_COMMENT)]
      .filter(({ 0: name, index }) => new RegExp(`\\.(?:${EXTENSIONS})$`).test(name) && !/[*.:\w/-]$/.test(comment.slice(0, index)) && !/^[\w-]+\.[a-z]{2,}\//.test(name))
      .map(({ 0: name }) => name),
  );
}

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: node tools/scripts/check-paths.js <files…>');
  process.exit(2);
}
let missing = 0;
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const names = file.endsWith('.md') ? namesInMarkdown(text) : namesInComments(text);
  for (const name of new Set(names)) {
    if (found(name, file)) continue;
    missing++;
    console.log(`${file}: ${name}`);
  }
}
process.exit(missing ? 1 : 0);
