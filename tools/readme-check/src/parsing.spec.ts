import { codeBlocks } from './markdown-blocks';
import { mismatch, parsePattern } from './pattern';
import { finalStatus } from './shell-session';
import { cleanEnv, withPorts } from './stack';
import { parseExpectation, splitSteps } from './steps';

const matches = (pattern: string, actual: unknown) => mismatch(parsePattern(pattern), actual);

describe('JSON patterns with …', () => {
  it('matches exact JSON exactly, members and items included', () => {
    expect(matches('{"a":1,"b":[true,null,"x"]}', { a: 1, b: [true, null, 'x'] })).toBeUndefined();
    expect(matches('{"a":1}', { a: 1, b: 2 })).toMatch(/members not shown in the README: b/);
    expect(matches('{"a":1,"b":2}', { a: 1 })).toMatch(/no member "b"/);
    expect(matches('[1,2]', [1, 2, 3])).toMatch(/expected 2 items, got 3/);
    expect(matches('{"a":"x"}', { a: 'y' })).toBe('$.a: expected "x", got "y"');
    expect(matches('{"a":1}', { a: '1' })).toBe('$.a: expected 1, got "1"');
  });

  it('reads … as any value, any text, more items or more members', () => {
    expect(matches('{"id":…,"name":"Ann",…}', { id: 7, name: 'Ann', extra: [1] })).toBeUndefined();
    expect(matches('{"token":"eyJ…","at":"…"}', { token: 'eyJhbGci', at: '2026-11-24' })).toBeUndefined();
    expect(matches('{"token":"eyJ…"}', { token: 'abc' })).toMatch(/expected "eyJ…"/);
    expect(matches('[…]', [])).toBeUndefined();
    expect(matches('[{"id":1},…]', [{ id: 1 }, { id: 2 }])).toBeUndefined();
    expect(matches('[…,{"id":2}]', [{ id: 1 }, { id: 2 }])).toBeUndefined();
    expect(matches('[…,{"id":2}]', [{ id: 2 }, { id: 1 }])).toBe('$[1].id: expected 2, got 1');
    expect(matches('{"data":[{"name":…}],…}', { data: [], total: 0 })).toMatch(/expected 1 items, got 0/);
    expect(matches('"a…b…c"', 'a-x-b--c')).toBeUndefined();
    expect(matches('"a.b"', 'axb')).toMatch(/expected "a.b"/);
  });

  it('refuses a pattern it cannot read', () => {
    expect(() => parsePattern('{"a":}')).toThrow(/bad JSON pattern/);
    expect(() => parsePattern('[…,1,…]')).toThrow(/one … per array/);
    expect(() => parsePattern('{"a":1} and more')).toThrow(/text after the value/);
  });
});

describe('README blocks and steps', () => {
  const markdown = [
    '# Title',
    '```sh',
    'A=1',
    '# prose, not an expectation',
    "curl -X POST localhost:3001/x -d '{",
    '  "a": 1}\'',
    '# 201 {"a":1}',
    'curl localhost:3001/y \\',
    '  -H "Accept: application/json"',
    '# 404',
    'for i in 1 2; do',
    '  echo $i',
    'done',
    '```',
    '```console',
    'npm start',
    '```',
    '```json',
    '{"not": "run"}',
    '```',
  ].join('\n');

  it('finds the blocks with their language and line', () => {
    expect(codeBlocks(markdown, 'R.md').map((b) => [b.language, b.line])).toEqual([
      ['sh', 2],
      ['console', 15],
      ['json', 18],
    ]);
    expect(() => codeBlocks('```sh\nls\n', 'R.md')).toThrow('R.md:1: code block never closed');
  });

  it('splits a block into whole commands, each with the answer shown after it', () => {
    const steps = splitSteps(codeBlocks(markdown, 'R.md')[0]);
    expect(steps.map(({ line, command, expect }) => ({ line, command, expect }))).toEqual([
      { line: 3, command: 'A=1', expect: undefined },
      { line: 5, command: "curl -X POST localhost:3001/x -d '{\n  \"a\": 1}'", expect: { status: 201, body: '{"a":1}' } },
      { line: 8, command: 'curl localhost:3001/y \\\n  -H "Accept: application/json"', expect: { status: 404, body: undefined } },
      { line: 11, command: 'for i in 1 2; do\n  echo $i\ndone', expect: undefined },
    ]);
    expect(() => splitSteps({ file: 'R.md', line: 1, language: 'sh', text: "echo 'open" })).toThrow(/R.md:2: the command never ends/);
  });

  it('reads expectations, and takes other comments as prose', () => {
    expect(parseExpectation('# 204')).toEqual({ status: 204, body: undefined });
    expect(parseExpectation('# [{"id":…}]')).toEqual({ status: undefined, body: '[{"id":…}]' });
    expect(parseExpectation('# 1. create a user')).toBeUndefined();
    expect(parseExpectation('# restore (replaces the collections)')).toBeUndefined();
  });
});

describe('running against the test stack', () => {
  it('moves the contract ports to the stack’s, wherever a loopback host names them', () => {
    const ports = new Map([
      [3001, 41001],
      [8080, 48080],
    ]);
    expect(withPorts("curl localhost:3001/a http://crm.localhost:8080/b -H 'Host: x' http://127.0.0.1:8080/ localhost:3009 example.com:3001", ports)).toBe(
      "curl localhost:41001/a http://crm.localhost:48080/b -H 'Host: x' http://127.0.0.1:48080/ localhost:3009 example.com:3001",
    );
  });

  it("gives README commands a user's environment: no test database, ports or Nx cache skipping of the test run", () => {
    const env = cleanEnv({ PATH: '/bin', MONGO_URL: 'mongodb://x', CRM_MONGO_URL: 'mongodb://y', CRM_PORT: '1', NODE_ENV: 'test', JEST_WORKER_ID: '1', NX_SKIP_NX_CACHE: 'true', NX_DAEMON: 'false' });
    expect(env).toEqual({ PATH: '/bin', NX_DAEMON: 'false' });
  });

  it('takes the last status of a header dump (after 100 Continue and redirects)', () => {
    expect(finalStatus('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nX: y\r\n\r\n')).toBe(201);
    expect(finalStatus('')).toBeUndefined();
  });
});
