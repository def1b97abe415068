import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { readDockerfile } from './dockerfile';
import { fromRoot } from './workspace';

// One supported Node range (package.json engines): the images' version is one CI installs with and
// tests on, CI tests one version of every line the range admits and none outside it, and no
// installed package asks for more than the range's lowest version.
const engines = (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const imageVersion = /^node:(\d+\.\d+\.\d+)-/.exec(readDockerfile(fromRoot('docker/Dockerfile')).args.NODE_IMAGE)?.[1];
const ciScript = readFileSync(fromRoot('.ci/run'), 'utf8');
const ciImageVersion = /^NODE_IMAGE_VERSION=(\S+)$/m.exec(ciScript)?.[1];
const ciTestVersions = /^NODE_TEST_VERSIONS="([^"]+)"$/m.exec(ciScript)?.[1].split(/\s+/) ?? [];

/** name@version → its engines.node, for every package under node_modules (nested ones too). */
function installedEngines(dir = fromRoot('node_modules'), found = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const packageDir = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installedEngines(packageDir, found);
      continue;
    }
    const manifest = path.join(packageDir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version, engines: wanted } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
      if (typeof wanted?.node === 'string') found.set(`${name}@${version}`, wanted.node);
    }
    if (existsSync(path.join(packageDir, 'node_modules'))) installedEngines(path.join(packageDir, 'node_modules'), found);
  }
  return found;
}

describe('the Node runtime', () => {
  it('is one pinned LTS version in the Dockerfile and in CI, inside package.json engines', () => {
    expect(imageVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(ciImageVersion).toBe(imageVersion);
    expect(ciTestVersions).toContain(imageVersion);
    expect(semver.major(imageVersion!) % 2).toBe(0); // even majors become LTS
    expect(semver.satisfies(imageVersion!, engines)).toBe(true);
  });

  it('is tested in CI on one release of every line engines admits, and on nothing outside it', () => {
    const lines = engines.split('||').map((range) => semver.minVersion(range.trim())!.major);
    expect(ciTestVersions.every((version) => semver.satisfies(version, engines))).toBe(true);
    expect([...new Set(ciTestVersions.map((version) => semver.major(version)))].sort()).toEqual([...lines].sort());
    expect(lines.every((major) => major % 2 === 0)).toBe(true); // LTS lines only
  });

  it("admits no Node version that an installed package refuses: engines' lowest version satisfies every package", () => {
    const lowest = semver.minVersion(engines)!.version;
    const refusing = [...installedEngines()].filter(([, wanted]) => semver.validRange(wanted) && !semver.satisfies(lowest, wanted)).map(([pkg, wanted]) => `${pkg} wants ${wanted}`);
    expect(refusing).toEqual([]);
    expect(semver.satisfies('20.20.2', engines)).toBe(false); // end of life, and below the OpenTelemetry packages' >=22.15
  });
});
