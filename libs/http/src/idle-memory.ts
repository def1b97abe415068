import { performance } from 'node:perf_hooks';
import { Script } from 'node:vm';

export interface IdleMemoryOptions {
  /** How long the event loop must stay quiet before memory may be given back. */
  quietMs: number;
  /** How often the event loop's busy share is read (and, while quiet, the allocation made). */
  checkMs: number;
  /** A period whose loop was busy for less than this share counts as quiet. */
  quietShare: number;
}

/**
 * Quiet for 30 s: a pause between bursts is shorter, and a process serving a trickle of requests
 * stays under 5 % busy. While quiet, one allocation every 10 s: V8 halves its estimate every 100 ms
 * without one, so each keeps it above zero for about 107 s (2^-1074).
 */
export const DEFAULT_IDLE_MEMORY: IdleMemoryOptions = { quietMs: 30_000, checkMs: 10_000, quietShare: 0.05 };

/**
 * Lets V8's memory reducer give a quiet process's memory back on Node 24 and later.
 *
 * The memory reducer runs the collection that returns freed and pooled heap pages to the system
 * once a process goes quiet, but only when every allocation rate it watches is low, that of the
 * embedder's C++ heap (cppgc) included. Since V8 13 (Node 24, 26) that rate is estimated with no
 * lower bound, and a process that never allocates on the C++ heap has a rate of exactly 0, which V8
 * counts as the highest: "Memory reducer: high alloc" on every check, and nothing is given back
 * until a watchdog 100 s after the last full collection, which any full collection postpones
 * (V8 issue 570738027, nodejs/node#66564). The one allocation Node makes on that heap is a
 * `vm.Script`'s handle: compiling an empty script makes the estimate a tiny positive number, which
 * counts as low.
 *
 * Only once the event loop has been quiet for `quietMs`: that collection also drops the optimized
 * code that only the finished requests' closures held, and the next burst compiles it again (about
 * 250 functions and ×1.2–1.5 CPU per request for its first 2,000 requests, measured on crm-api).
 * A pause of a few seconds between bursts should not pay that; a service left idle gives back about
 * 50 MB (crm-api: 163 MB after a load, 110 MB once quiet). docs/BENCHMARKS.md, "Issue 27, twelfth
 * round". On Node 20 and 22, which bound the estimate, the allocation changes nothing. The timer
 * never keeps the process alive.
 */
export function returnIdleMemory({ quietMs, checkMs, quietShare }: IdleMemoryOptions = DEFAULT_IDLE_MEMORY): void {
  let last = performance.eventLoopUtilization();
  let quietFor = 0;
  const check = () => {
    const now = performance.eventLoopUtilization();
    quietFor = performance.eventLoopUtilization(now, last).utilization < quietShare ? quietFor + checkMs : 0;
    last = now;
    if (quietFor >= quietMs) void new Script('');
  };
  setInterval(check, checkMs).unref();
}
