import type { Connection } from 'mongoose';
import type { Publisher } from './feeds-config';
import { sourceModel, type SourceDoc } from './source.model';

export function sourceService(connection: Connection, publishers: Publisher[]) {
  const Source = sourceModel(connection);

  return {
    /** Every configured publisher with what its last fetches recorded (none before its first sync). */
    async list(): Promise<Array<{ publisher: Publisher; doc?: SourceDoc }>> {
      const docs = new Map((await Source.find().lean<SourceDoc[]>()).map((d) => [d._id, d]));
      return publishers.map((publisher) => ({ publisher, doc: docs.get(publisher.id) }));
    },
  };
}

export type SourceService = ReturnType<typeof sourceService>;
