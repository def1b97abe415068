import { Script } from 'node:vm';

/**
 * How often the allocation below is made. V8 halves its allocation-rate estimate every 100 ms of
 * process time, so one allocation keeps it above zero for about 107 s (2^-1074); 30 s leaves room.
 */
export const IDLE_MEMORY_NUDGE_MS = 30_000;

/**
 * Lets V8's memory reducer give an idle process's memory back on Node 24 and later.
 *
 * The memory reducer runs the collection that returns freed and pooled heap pages to the system
 * once a process goes quiet, but only when every allocation rate it watches is low, that of the
 * embedder's C++ heap (cppgc) included. Since V8 13 (Node 24, 26) that rate is estimated with no
 * lower bound, and a process that never allocates on the C++ heap has a rate of exactly 0, which V8
 * counts as the highest: "Memory reducer: high alloc" on every check, and nothing is given back
 * until a watchdog 100 s after the last full collection, which any full collection postpones
 * (V8 issue 570738027, nodejs/node#66564). Measured on crm-api under the image's flags: resident
 * 163 MB after a load, still 162 MB a minute later; with this, 110 MB ten seconds later
 * (docs/BENCHMARKS.md, "Issue 27, twelfth round").
 *
 * The one allocation Node makes on that heap is a `vm.Script`'s handle: compiling an empty script
 * now and every IDLE_MEMORY_NUDGE_MS keeps the estimate a tiny positive number, which counts as low.
 * On Node 20 and 22 (which bound the estimate) it changes nothing. The timer never keeps the
 * process alive.
 */
export function returnIdleMemory(): void {
  const allocate = () => void new Script('');
  allocate();
  setInterval(allocate, IDLE_MEMORY_NUDGE_MS).unref();
}
