import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Calls `onLine` for every line of `stream` (without its line ending), including a last unterminated one. */
export function forEachLine(stream: Readable, onLine: (line: string) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
}
