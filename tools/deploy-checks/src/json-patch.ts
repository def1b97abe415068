/** One RFC 6902 operation of the kinds the overlays use. */
export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Applies JSON patch operations (add, replace, remove) to `document` in place, as kustomize does
 * for `patches` with a target. A path that does not exist throws, naming it.
 */
export function applyJsonPatch(document: unknown, operations: readonly PatchOperation[]): void {
  for (const { op, path, value } of operations) {
    if (!['add', 'replace', 'remove'].includes(op)) throw new Error(`unsupported patch op "${op}" at ${path}`);
    const tokens = path.split('/').slice(1).map(unescape);
    const last = tokens.pop();
    if (last === undefined) throw new Error(`patch path "${path}" names the whole document`);
    let parent = document as Record<string, unknown> | unknown[];
    for (const token of tokens) {
      const next = Array.isArray(parent) ? parent[Number(token)] : parent?.[token];
      if (typeof next !== 'object' || next === null) throw new Error(`patch path "${path}" does not exist`);
      parent = next as Record<string, unknown> | unknown[];
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length || (op !== 'add' && index === parent.length)) {
        throw new Error(`patch path "${path}" does not exist`);
      }
      if (op === 'add') parent.splice(index, 0, value);
      else if (op === 'replace') parent[index] = value;
      else parent.splice(index, 1);
    } else {
      if (op !== 'add' && !(last in parent)) throw new Error(`patch path "${path}" does not exist`);
      if (op === 'remove') delete parent[last];
      else parent[last] = value;
    }
  }
}
