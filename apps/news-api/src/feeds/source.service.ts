import type { Publisher } from './feeds-config';
import type { SourceDoc } from './source.model';
import type { SourceRepository } from './source.repository';

export function sourceService(sources: SourceRepository, publishers: Publisher[]) {
  return {
    /** Every configured publisher with what its last fetches recorded (none before its first sync). */
    async list(): Promise<Array<{ publisher: Publisher; doc?: SourceDoc }>> {
      const docs = new Map((await sources.all()).map((d) => [d._id, d]));
      return publishers.map((publisher) => ({ publisher, doc: docs.get(publisher.id) }));
    },
  };
}

export type SourceService = ReturnType<typeof sourceService>;
