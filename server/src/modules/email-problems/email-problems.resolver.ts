import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { EmailProblemsService } from './email-problems.service.js';
import { EmailProblems } from './email-problems.types.js';

@Resolver()
export class EmailProblemsResolver {
  constructor(private readonly service: EmailProblemsService) {}

  @Allow('admin')
  @Query(() => EmailProblems, { description: 'E-mails that failed or have waited long past their time, with the reason.' })
  emailProblems(@Ctx() ctx: RequestContext): Promise<EmailProblems> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Mutation(() => Int, { description: 'Puts the named failed or waiting e-mails (all of them without `ids`) back in the queue, due now; returns how many.' })
  retryEmails(
    @Ctx() ctx: RequestContext,
    @Arg('ids', () => [Int], { nullable: true, description: 'The e-mails (`EmailProblem.id`); null or left out: every one listed.' }) ids?: number[] | null,
  ): Promise<number> {
    return this.service.retry(ctx, ids ?? null);
  }
}
