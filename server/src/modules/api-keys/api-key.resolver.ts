import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { ApiKey } from './api-key.entity.js';
import type { ApiKeyService } from './api-key.service.js';
import { ApiKeyInput, CreatedApiKey } from './api-key.types.js';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  constructor(private readonly service: ApiKeyService) {}

  @Allow('admin')
  @Query(() => [ApiKey], { description: 'Every API key, newest first, revoked ones included (admins).' })
  apiKeys(@Ctx() ctx: RequestContext): Promise<ApiKey[]> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Mutation(() => CreatedApiKey, { description: 'Creates an API key; the answer is the only time the key itself is shown. Audited.' })
  createApiKey(@Ctx() ctx: RequestContext, @Arg('input', () => ApiKeyInput, { description: 'Its name and scopes.' }) input: ApiKeyInput): Promise<CreatedApiKey> {
    return this.service.create(ctx, input);
  }

  @Allow('admin')
  @Mutation(() => ApiKey, { description: 'Revokes an API key: every process refuses it from the moment this answers. Audited.' })
  revokeApiKey(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The key's id." }) id: number): Promise<ApiKey> {
    return this.service.revoke(ctx, id);
  }
}
