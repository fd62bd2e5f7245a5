import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';

export interface MediaUsageRecord {
  fileId: number;
  kind: string;
  id: number;
  label: string;
}

/** Finds what uses the given files; each feature that references media (products, categories) adds one. */
export type MediaUsageProvider = (em: EntityManager, fileIds: number[]) => Promise<MediaUsageRecord[]>;

interface Batch {
  ids: Set<number>;
  result: Promise<MediaUsageRecord[]>;
}

/**
 * Where media files are used. Lookups made in the same tick of one request (the `usages` field of
 * every file on a page) are gathered into one call per provider, so a page costs a fixed number of
 * queries whatever its size.
 */
export class MediaUsages {
  private readonly providers: MediaUsageProvider[] = [];
  private readonly pending = new WeakMap<RequestContext, Batch>();

  register(provider: MediaUsageProvider): () => void {
    this.providers.push(provider);
    return () => {
      const index = this.providers.indexOf(provider);
      if (index >= 0) this.providers.splice(index, 1);
    };
  }

  of(ctx: RequestContext, fileId: number): Promise<MediaUsageRecord[]> {
    if (!this.providers.length) return Promise.resolve([]);
    let batch = this.pending.get(ctx);
    if (!batch) {
      const ids = new Set<number>();
      const result = new Promise<void>((resolve) => process.nextTick(resolve)).then(async () => {
        this.pending.delete(ctx);
        const found = await Promise.all(this.providers.map((provider) => provider(ctx.em, [...ids])));
        return found.flat();
      });
      batch = { ids, result };
      this.pending.set(ctx, batch);
    }
    batch.ids.add(fileId);
    return batch.result.then((all) => all.filter((usage) => usage.fileId === fileId));
  }
}
