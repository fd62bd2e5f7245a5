import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { SettingsService } from './settings.service.js';
import { Settings, UpdateSettingsInput } from './settings.types.js';

@Resolver()
export class SettingsResolver {
  constructor(private readonly service: SettingsService) {}

  @Allow('public')
  @Query(() => Settings, { description: 'The site-wide settings; anyone may read them, even while the shop is under construction.' })
  settings(@Ctx() ctx: RequestContext): Promise<Settings> {
    return this.service.get(ctx);
  }

  @Allow('admin')
  @Mutation(() => Settings, { description: 'Changes site-wide settings and answers them as they are now. Audited.' })
  updateSettings(@Ctx() ctx: RequestContext, @Arg('input', () => UpdateSettingsInput, { description: 'What changes.' }) input: UpdateSettingsInput): Promise<Settings> {
    // A plain object: the service reads which fields were given.
    return this.service.update(ctx, { ...input });
  }
}
