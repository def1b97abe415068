import { PROBE_PATH_SPELLINGS, ROUTED_PATHS } from './probe-path-spellings';
import { PROBE_PATH_RULE, isProbeTarget, normalizedPath } from './probe-paths';

describe('probe paths', () => {
  it('the rule covers every probe path', () => {
    expect(PROBE_PATH_RULE).toBe('/(healthz|readyz|metrics)');
  });

  it.each([
    ['/readyz?x=1', '/readyz'],
    ['//readyz', '/readyz'],
    ['/a//b///c', '/a/b/c'],
    ['/%72eadyz', '/readyz'],
    ['/%2Freadyz', '/readyz'],
    ['/./x/../readyz', '/readyz'],
    ['/../../readyz', '/readyz'],
    ['/a/b/..', '/a/'],
    ['/a/', '/a/'],
    ['http://host:8080//readyz/?q', '/readyz/'],
    ['http://host', '/'],
    ['/100%', '/100%'],
    ['*', '/*'],
    ['*/readyz', '/*/readyz'],
    ['http://host?/readyz', '/'],
  ])('normalises %s to %s, as nginx does before choosing a location', (target, path) => {
    expect(normalizedPath(target)).toBe(path);
  });

  it.each(PROBE_PATH_SPELLINGS)('%s is a probe path', (target) => {
    expect(isProbeTarget(target)).toBe(true);
  });

  it.each(ROUTED_PATHS)('%s is not', (target) => {
    expect(isProbeTarget(target)).toBe(false);
  });
});
