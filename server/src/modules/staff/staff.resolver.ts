import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { AuthPayload, Role, User } from '../auth/index.js';
import type { StaffService } from './staff.service.js';
import { AcceptStaffInvitationInput, InviteStaffInput, StaffInvitationPayload, StaffList } from './staff.types.js';

@Resolver()
export class StaffResolver {
  constructor(private readonly service: StaffService) {}

  @Allow('admin')
  @Query(() => StaffList, { description: 'The admins and staff, and the invitations not accepted yet.' })
  staff(@Ctx() ctx: RequestContext): Promise<StaffList> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Mutation(() => StaffInvitationPayload, { description: 'E-mails an invitation to join as admin or staff (single-use link, valid 7 days); CONFLICT when an account already uses the address.' })
  inviteStaff(@Ctx() ctx: RequestContext, @Arg('input', () => InviteStaffInput, { description: 'The address and the role.' }) input: InviteStaffInput): Promise<StaffInvitationPayload> {
    return this.service.invite(ctx, input);
  }

  @Allow('admin')
  @Mutation(() => Int, { description: 'Withdraws an invitation not accepted yet; returns its id.' })
  async withdrawStaffInvitation(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The invitation's id." }) id: number): Promise<number> {
    await this.service.withdrawInvitation(ctx, id);
    return id;
  }

  @Allow('admin')
  @Mutation(() => User, { description: 'Makes an admin staff or staff an admin (their sessions end); CONFLICT for the last admin.' })
  changeStaffRole(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The account's user id." }) id: number,
    @Arg('role', () => Role, { description: 'ADMIN or STAFF.' }) role: Role,
  ): Promise<User> {
    return this.service.changeRole(ctx, id, role);
  }

  @Allow('admin')
  @Mutation(() => Int, { description: 'Removes an admin or staff account (their tokens stop working at once); CONFLICT for the last admin. Returns the id.' })
  async removeStaff(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The account's user id." }) id: number): Promise<number> {
    await this.service.remove(ctx, id);
    return id;
  }

  @Allow('public')
  @Mutation(() => AuthPayload, { description: 'Accepts an invitation: a new account with the invited address and role, signed in. TOKEN_INVALID for a used, expired or unknown link.' })
  acceptStaffInvitation(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => AcceptStaffInvitationInput, { description: "The link's token, and the new account's username and password." }) input: AcceptStaffInvitationInput,
  ): Promise<AuthPayload> {
    return this.service.accept(ctx, input);
  }
}
