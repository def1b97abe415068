import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { forEachLine } from './for-each-line';

describe('forEachLine', () => {
  it('gives whole lines across chunk borders, CRLF included, and a last line without newline', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    forEachLine(stream, (line) => lines.push(line));
    stream.write('first li');
    stream.write('ne\r\nsecond\n\nthi');
    stream.end('rd');
    await once(stream, 'end');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(['first line', 'second', '', 'third']);
  });
});
