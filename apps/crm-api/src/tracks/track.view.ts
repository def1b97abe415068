import type { TrackDoc } from './track.model';

/** The wire shape of a track (JSON and XML): milestones as one comma-separated string. */
export const trackView = (doc: TrackDoc) => ({ id: doc._id, name: doc.name, milestones: doc.milestones.join(',') });
