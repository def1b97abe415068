import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyJsonPatch } from './json-patch';
import { imageName, imageTag, renderKustomization } from './kustomize';

describe('renderKustomization', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'kustomize-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const write = (file: string, text: string) => mkdir(path.dirname(path.join(dir, file)), { recursive: true }).then(() => writeFile(path.join(dir, file), text));
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  A: "1"\n';

  it('refuses kustomize features it does not understand, rather than skipping them', async () => {
    await write('kustomization.yaml', 'resources: []\ncommonLabels:\n  a: b\n');
    expect(() => renderKustomization(dir)).toThrow('kustomize fields not understood by the checks: commonLabels');
  });

  it('names a missing resource and a patch that targets nothing', async () => {
    await write('kustomization.yaml', 'resources:\n  - missing.yaml\n');
    expect(() => renderKustomization(dir)).toThrow('resource missing.yaml does not exist');
    await write('cm.yaml', cm);
    await write('kustomization.yaml', 'resources:\n  - cm.yaml\npatches:\n  - target:\n      kind: ConfigMap\n      name: other\n    patch: "[]"\n');
    expect(() => renderKustomization(dir)).toThrow('patch target ConfigMap/other matches 0 resources');
  });

  it('merges generated data, applies patches and sets the namespace', async () => {
    await write('base/cm.yaml', cm);
    await write('base/kustomization.yaml', 'resources:\n  - cm.yaml\n');
    await write(
      'kustomization.yaml',
      'namespace: ns\nresources:\n  - base\nconfigMapGenerator:\n  - name: extra\n    literals:\n      - B=2=3\n' +
        'patches:\n  - target:\n      kind: ConfigMap\n      name: settings\n    patch: |-\n      - op: replace\n        path: /data/A\n        value: "9"\n',
    );
    expect(renderKustomization(dir)).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'ns' }, data: { A: '9' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: 'ns' }, data: { B: '2=3' } },
    ]);
  });
});

describe('applyJsonPatch', () => {
  it('adds, replaces and removes, and names a path that does not exist', () => {
    const doc = { a: [1, 2], b: { c: 1 } };
    applyJsonPatch(doc, [
      { op: 'add', path: '/a/-', value: 3 },
      { op: 'replace', path: '/b/c', value: 2 },
      { op: 'remove', path: '/a/0' },
    ]);
    expect(doc).toEqual({ a: [2, 3], b: { c: 2 } });
    expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/x/y', value: 1 }])).toThrow('patch path "/x/y" does not exist');
  });
});

describe('image references', () => {
  it('splits name and tag, with registry ports and digests', () => {
    expect([imageName('mongo:7.0.14'), imageTag('mongo:7.0.14')]).toEqual(['mongo', '7.0.14']);
    expect([imageName('reg:5000/a/b'), imageTag('reg:5000/a/b')]).toEqual(['reg:5000/a/b', undefined]);
    expect(imageName('a/b:1@sha256:abc')).toBe('a/b');
  });
});
