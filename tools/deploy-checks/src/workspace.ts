import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The repository root (this file is tools/deploy-checks/src/workspace.ts). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');

export const fromRoot = (...parts: string[]) => path.join(ROOT, ...parts);

/** Whether the Nx project of an app exists yet (a service-table row may land before its app). */
export const appProjectExists = (name: string) => existsSync(fromRoot('apps', name, 'project.json'));

/** Every YAML document of a file, as plain data (compose's `<<` merge keys resolved); a syntax error or duplicate key throws, naming the file. */
export function readYamlDocuments(file: string): unknown[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'), { uniqueKeys: true, merge: true });
  if (!Array.isArray(documents)) return [];
  const values: unknown[] = [];
  for (const document of documents) {
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) throw new Error(`${path.relative(ROOT, file)}: ${problem.message}`);
    const value = document.toJS();
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

/** The single YAML document of a file. */
export function readYaml<T>(file: string): T {
  const [value, ...rest] = readYamlDocuments(file);
  if (value === undefined || rest.length > 0) throw new Error(`${path.relative(ROOT, file)}: expected exactly one YAML document`);
  return value as T;
}
