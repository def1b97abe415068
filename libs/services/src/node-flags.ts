/**
 * The Node flags every service process runs with — the one place they are defined. The image sets
 * them as NODE_OPTIONS (docker/Dockerfile; tools/deploy-checks fails if it says otherwise), `npm start`
 * (tools/dev-runner) and the benchmark (tools/bench) pass them on the command line. Why these
 * values, and what they cost: docs/BENCHMARKS.md, "Memory".
 *
 * - `--max-old-space-size`: a heap limit well inside the container's memory limit (k8s: 256Mi).
 *   Below 256 MB V8 also lets the heap grow to only 1.3 times the live data before a full
 *   collection (4 times with the default limit of a few GB): RSS stays near 100 MB instead of
 *   swinging up to 190, for 12–20 % more CPU per request (more full collections).
 * - `--max-semi-space-size`: the young generation's two semi-spaces at most 4 MB each instead of
 *   16; saves about 24 MB at no measurable CPU cost.
 */
const HEAP_LIMIT_MB = 128;
const SEMI_SPACE_MB = 4;

export const SERVICE_NODE_FLAGS: readonly string[] = [`--max-old-space-size=${HEAP_LIMIT_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
