import { pathId, text, z } from '@lib/validation';
import { idField } from '../input/fields';
import { milestonesProblem, splitMilestones } from './milestones';
import { DEFAULT_TRACK_NAME } from './track.model';

/** A comma-separated list of milestone names, parsed to the names in order. */
export const milestoneList = z
  .string()
  .max(5000)
  .transform((value, ctx) => {
    const names = splitMilestones(value);
    const problem = milestonesProblem(names);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return names;
  })
  .meta({ description: 'Milestone names separated by commas, each starting with an uppercase letter', example: 'Open,Demo,Won,Lost' });

export const TRACK_NAME_MAX = 100;
const trackName = text({ max: TRACK_NAME_MAX })
  .transform((name) => name.trim())
  .refine((name) => name !== DEFAULT_TRACK_NAME, `must not be ${DEFAULT_TRACK_NAME}: every account has that track already`);

/**
 * K2/K3 body. The spec's request key is `milestone`; `milestones` (the response key) is accepted
 * too, so a fetched track can be sent back.
 */
export const trackInput = z.strictObject({
  id: idField.optional(),
  name: trackName,
  milestone: milestoneList.optional(),
  milestones: milestoneList.optional(),
});
export type TrackInput = z.output<typeof trackInput>;

export const trackParams = z.strictObject({ id: pathId });
