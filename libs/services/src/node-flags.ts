/**
 * The Node flags every service process runs with — the one place they are defined. The image sets
 * the heap limits as NODE_OPTIONS and the V8 tuning on node's command line (Node refuses
 * `--heap-growing-percent` in NODE_OPTIONS): docker/Dockerfile, and tools/deploy-checks fails if it
 * says otherwise, and checks the Kubernetes memory limits hold old space + 3 semi-spaces + 96 MB.
 * `npm start` (tools/dev-runner) and the benchmark (tools/bench) pass them all on the command line.
 * Why these values, and what they cost: docs/BENCHMARKS.md, "Memory: what the resident set is made
 * of" and "Heap flags: the semi-space and heap growth".
 *
 * - `--max-old-space-size`: a heap limit well inside the container's memory limit (k8s: 256Mi).
 *   Below 256 MB V8 also lets the heap grow to only 1.3 times the live data before a full
 *   collection (4 times with the default limit of a few GB): RSS stays near 100 MB instead of
 *   swinging up to 190.
 * - `--max-semi-space-size`: the young generation, where nearly everything a request allocates
 *   dies. Each scavenge costs about the same (it copies what is still alive: the requests in
 *   flight), so their number, and their CPU, falls as the semi-space grows. Measured in interleaved
 *   runs of one build: 8 MB instead of 4 took 10–15% off the CPU per request of the allocation-heavy
 *   rows for about 8 MB more resident; 16 MB saved a few % more for another 15 MB and would not fit
 *   the 256Mi limit. The same value suits every app (none differed enough to justify a flag each).
 * - `--heap-growing-percent`: how far the old generation may grow past what the last full
 *   collection left alive before the next one. Under a 256 MB limit V8 allows only 1.3 times, so
 *   with 25–35 MB live an app ran a full collection (and its concurrent marking threads) every few
 *   hundred requests. Twice the live data halved the full collections and took 13–30% off the CPU
 *   per request of the crm and news list rows, for about 20 MB more resident (every app ends the
 *   bench under 150 MB on Node 20 and, since a quiet process lets V8 give memory back, on Node 24:
 *   @lib/http idle-memory; docs/BENCHMARKS.md, "Old-generation growth against memory" and "Issue
 *   27, twelfth round"). It changes no limit: the old generation still stops at `--max-old-space-size`.
 * - `--no-maglev`: V8's mid-tier compiler (on by default since Node 22; the images run Node 24)
 *   compiles every warm function once more between Sparkplug and TurboFan, in memory outside the
 *   heap. Without it, in interleaved runs on Node 24 (docs/BENCHMARKS.md, "Heap flags"), each app
 *   held 8–20 MB less resident with no more CPU per request once warm (×0.87–×0.99); only the
 *   first few thousand requests cost more while TurboFan has not yet compiled the hot paths.
 *   Node 20 accepts the flag (Maglev is off there anyway).
 * - `--no-parallel-scavenge`: each young-generation collection runs on the main thread alone
 *   instead of being split into tasks for V8's worker threads. A pod has a 1-CPU limit, so those
 *   threads take turns with the main thread rather than run beside it, and splitting, handing out
 *   and joining the work is paid on every scavenge (one every few hundred requests). In interleaved
 *   runs on Node 24 (docs/BENCHMARKS.md, "Issue 27, ninth round") the CPU per request fell ×0.84–0.93
 *   on deals by milestone, the news pages and the users list, ×0.89–0.98 on contact by id and the
 *   contact page, with no more resident memory and p99 lower in 10 of 16 comparisons; search by
 *   email and the XML page were within the runs' spread. The bench's baseline runs under these
 *   flags too and gains ×0.91–0.97, so its ratios move less. Node 20, 22, 24 and 26 accept the flag.
 */
const HEAP_LIMIT_MB = 128;
const SEMI_SPACE_MB = 8;
const HEAP_GROWING_PERCENT = 100;

/** The heap limits: the image sets them as NODE_OPTIONS, which a deployment may override. */
export const SERVICE_HEAP_FLAGS: readonly string[] = [`--max-old-space-size=${HEAP_LIMIT_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
/** V8 tuning that Node accepts on its command line only (not in NODE_OPTIONS): the image's CMD. */
export const SERVICE_V8_FLAGS: readonly string[] = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--no-maglev', '--no-parallel-scavenge'];
export const SERVICE_NODE_FLAGS: readonly string[] = [...SERVICE_HEAP_FLAGS, ...SERVICE_V8_FLAGS];
