import { existsSync, readFileSync } from 'node:fs';

/** One line of a memory probe file (see memory-probe.ts); sizes in MB. */
export interface ProbeSample {
  /** Epoch milliseconds. */
  t: number;
  rssMb: number;
  /** Resident anonymous memory: V8 heap, malloc'd native memory, thread stacks. */
  rssAnonMb: number;
  /** Resident pages of mapped files, mostly the node binary's own code. */
  rssFileMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  /** The part of the committed heap that is resident. */
  heapPhysicalMb: number;
  /** Heap used right after the latest full collection (NaN before the first one): the live heap. */
  liveHeapMb: number;
  /** Array buffers (Buffers) still held right after that collection. */
  liveArrayBuffersMb: number;
  majorGcs: number;
  /**
   * Main-thread garbage collection pauses so far (scavenges and full collections), wall-clock ms:
   * on a loaded machine a pause includes the time the thread waited for a core, so it is not CPU.
   */
  gcMs: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** What V8 itself allocated with malloc (outside its heap pages). */
  mallocedMb: number;
  heapLimitMb: number;
  spaces: Record<string, { sizeMb: number; usedMb: number }>;
}

/** The samples of a probe file, oldest first (a missing file, or a line cut short by a kill, is skipped). */
export function readProbeFile(file: string): ProbeSample[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line ? [JSON.parse(line) as ProbeSample] : [];
      } catch {
        return [];
      }
    });
}
