import type { RequestContext } from '../../core/context.js';
import { groupBy } from '../../core/loaders.js';

export interface MediaUsageRecord {
  fileId: number;
  kind: string;
  id: number;
  label: string;
}

/** Finds what uses the given files; each feature that references media (products, categories) adds one. */
export type MediaUsageProvider = (ctx: RequestContext, fileIds: number[]) => Promise<MediaUsageRecord[]>;

/**
 * Where media files are used. The lookups of one request (the `usages` field of every file on a
 * page) go through the request's batch loader: one call per provider, so a page costs a fixed
 * number of queries whatever its size.
 */
export class MediaUsages {
  private readonly providers: MediaUsageProvider[] = [];

  register(provider: MediaUsageProvider): () => void {
    this.providers.push(provider);
    return () => {
      const index = this.providers.indexOf(provider);
      if (index >= 0) this.providers.splice(index, 1);
    };
  }

  async of(ctx: RequestContext, fileId: number): Promise<MediaUsageRecord[]> {
    if (!this.providers.length) return [];
    const loader = ctx.loader<number, MediaUsageRecord[]>('media.usages', async (ids) => {
      const found = (await Promise.all(this.providers.map((provider) => provider(ctx, [...ids])))).flat();
      return groupBy(found, (usage) => usage.fileId);
    });
    return (await loader.load(fileId)) ?? [];
  }
}
