import type { ServiceEntry } from '@lib/services';
import { containersOf, literalEnv } from './pod';
import { find, type Resource } from './resource';

/**
 * Resident memory an app needs besides its V8 heap: the node binary's code (about 45 MB resident),
 * buffers, the driver's sockets, thread stacks — measured at 60–90 MB under load (docs/BENCHMARKS.md, "Memory").
 */
export const NATIVE_ALLOWANCE_MB = 96;

/** V8's default largest semi-space on 64-bit, in MB. */
const DEFAULT_SEMI_SPACE_MB = 16;

/** A Kubernetes memory quantity (`256Mi`, `1Gi`, `300M`, `268435456`) in MiB. */
export function quantityMiB(quantity: string): number {
  const [, number, unit = ''] = /^(\d+(?:\.\d+)?)([KMGT]i?)?$/.exec(quantity) ?? [];
  if (number === undefined) return NaN;
  const binary: Record<string, number> = { '': 2 ** -20, Ki: 2 ** -10, Mi: 1, Gi: 2 ** 10, Ti: 2 ** 20 };
  const decimal: Record<string, number> = { K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(number) * (binary[unit] ?? decimal[unit] / 2 ** 20);
}

/**
 * The most heap the flags let V8 take, in MB: the old generation plus the young one (V8 counts three
 * semi-spaces); undefined without `--max-old-space-size`, when V8 sizes its heap from the machine.
 */
export function heapBudgetMb(nodeOptions: string | undefined): number | undefined {
  const flag = (name: string) => new RegExp(`--${name}=(\\d+)`).exec(nodeOptions ?? '')?.[1];
  const oldSpace = flag('max-old-space-size');
  if (oldSpace === undefined) return undefined;
  return Number(oldSpace) + 3 * Number(flag('max-semi-space-size') ?? DEFAULT_SEMI_SPACE_MB);
}

/** Each app's memory limit holds its heap limit (NODE_OPTIONS from the pod, else the image's) plus the native allowance. */
export function memoryProblems(resources: readonly Resource[], services: readonly ServiceEntry[], imageNodeOptions: string | undefined): string[] {
  const problems: string[] = [];
  for (const { name } of services) {
    const deployment = find(resources, 'Deployment', name);
    const container = deployment && containersOf(deployment).find((c) => c.name === name);
    if (!container) continue; // reported by appProblems
    const nodeOptions = literalEnv(resources, container).NODE_OPTIONS ?? imageNodeOptions;
    const heap = heapBudgetMb(nodeOptions);
    const limit = quantityMiB(container.resources?.limits?.memory ?? '');
    if (heap === undefined) problems.push(`${name}: NODE_OPTIONS sets no --max-old-space-size, so V8 sizes its heap from the node's memory, not the container's limit`);
    else if (!(limit >= heap + NATIVE_ALLOWANCE_MB)) problems.push(`${name}: memory limit ${limit} MiB does not hold the heap limit ${heap} MB + ${NATIVE_ALLOWANCE_MB} MB of code and native memory`);
  }
  return problems;
}
