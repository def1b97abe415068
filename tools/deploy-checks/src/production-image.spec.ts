import { mkdtemp, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { SERVICES } from '@lib/services';
import { bundleApp } from './bundle';
import { appProjectExists, fromRoot } from './workspace';

const manifest = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
const EMBEDDED = '@jongodb/memory-server-bin-linux-x64-gnu';

// nx build writes the image's package.json from what the bundle imports, so the bundle's imports
// are exactly what `npm ci --omit=dev` installs in the runtime stage.
describe.each(SERVICES.filter((s) => appProjectExists(s.name)).map((s) => s.name))('the production image of %s', (name) => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(path.join(tmpdir(), 'deploy-bundle-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('needs only production dependencies, never the embedded database', async () => {
    const { packages } = await bundleApp(name, dir);
    const external = packages.filter((p) => !builtinModules.includes(p));
    expect(external.length).toBeGreaterThan(0);
    expect(external).not.toContain(EMBEDDED);
    expect(external.filter((p) => !manifest.dependencies?.[p])).toEqual([]);
    expect(manifest.optionalDependencies?.[EMBEDDED]).toBeDefined(); // so --omit=optional leaves it out too
  });
});
