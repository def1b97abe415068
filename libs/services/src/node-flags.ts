/**
 * The Node flags every service process runs with — the one place they are defined. The image sets
 * them as NODE_OPTIONS (docker/Dockerfile; tools/deploy-checks fails if it says otherwise, and checks
 * the Kubernetes memory limits hold old space + 3 semi-spaces + 96 MB), `npm start`
 * (tools/dev-runner) and the benchmark (tools/bench) pass them on the command line. Why these
 * values, and what they cost: docs/BENCHMARKS.md, "Memory" and "Garbage collection: the semi-space".
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
 */
const HEAP_LIMIT_MB = 128;
const SEMI_SPACE_MB = 8;

export const SERVICE_NODE_FLAGS: readonly string[] = [`--max-old-space-size=${HEAP_LIMIT_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
