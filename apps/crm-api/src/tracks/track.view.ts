import type { z } from '@lib/validation';
import type { trackOutput } from './track.outputs';
import type { TrackDoc } from './track.model';

/** The wire shape of a track (JSON and XML): milestones as one comma-separated string. */
export const trackView = (doc: TrackDoc): z.input<typeof trackOutput> => ({ id: doc._id, name: doc.name, milestones: doc.milestones.join(',') });
