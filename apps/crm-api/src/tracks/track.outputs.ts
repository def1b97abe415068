import { z } from '@lib/validation';

export const trackOutput = z.strictObject({
  id: z.number().int().meta({ description: 'Never 0 or 1 (D9/D10 give those values a meaning)' }),
  name: z.string(),
  milestones: z.string().meta({ description: 'Milestone names in track order, separated by commas', example: 'Open,New,Prospect,Proposal,Won,Lost' }),
}).meta({ id: 'Track' });
