import { intField } from './fields';

/** The time now in epoch seconds (how every stored time is written). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Latest accepted time: 9999-12-31T23:59:59Z in epoch seconds. */
export const MAX_EPOCH = 253_402_300_799;

/** An epoch-seconds time value (convention 5), as a JSON number or a digit string. */
export const epochField = () => intField({ min: 0, max: MAX_EPOCH });

/** For range checks: true unless both bounds are valid numbers and `from` is after `to` (an invalid bound is reported alone). */
export const inOrder = (from: unknown, to: unknown) => typeof from !== 'number' || typeof to !== 'number' || from <= to;
