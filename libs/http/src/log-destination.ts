import pino from 'pino';

/**
 * Where log lines go: stdout, written synchronously. pino's default (asynchronous sonic-boom)
 * hands every line to libuv's thread pool, which cost the main thread 8–90 µs per request line
 * (docs/BENCHMARKS.md, "What changed the figures", 3a6a213), and buffers without bound in memory while the reader of
 * stdout is stalled. A synchronous write is one write(2) per line; a stalled reader blocks the
 * process instead (as Node's own process.stdout does on a Linux pipe), and nothing is lost on exit.
 */
export const logDestination = (fd = 1) => pino.destination({ dest: fd, sync: true });
