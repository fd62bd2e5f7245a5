import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import type { AuditService } from './audit.service.js';
import { AuditActor, AuditEntry, AuditEntryConnection, AuditLogArgs } from './audit.types.js';

@Resolver(() => AuditEntry)
export class AuditResolver {
  constructor(private readonly service: AuditService) {}

  @Allow('admin')
  @Query(() => AuditEntryConnection, { description: 'Every change by an admin or a staff member in the last year, newest first, optionally of one person or one kind of thing.' })
  auditLog(@Ctx() ctx: RequestContext, @Args(() => AuditLogArgs) args: AuditLogArgs): Promise<ConnectionResult<AuditEntry>> {
    return this.service.list(ctx, { actor: args.actorId, entity: args.entity, first: args.first, after: args.after, oldestFirst: args.oldestFirst });
  }

  @Allow('admin')
  @Query(() => [AuditActor], { description: "The shop's admins and staff, for the audit log's filter." })
  auditActors(@Ctx() ctx: RequestContext): Promise<AuditActor[]> {
    return this.service.actors(ctx);
  }
}
