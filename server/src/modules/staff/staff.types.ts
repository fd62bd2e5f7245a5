import { Field, InputType, ObjectType } from 'type-graphql';
import { Role, User } from '../auth/index.js';
import { StaffInvitation } from './staff-invitation.entity.js';

@InputType({ description: 'Who to invite to join the shop’s people, and as what.' })
export class InviteStaffInput {
  @Field(() => String, { description: 'The address the invitation goes to; the account it makes will use it.' })
  email!: string;

  @Field(() => Role, { description: 'ADMIN or STAFF.' })
  role!: Role;
}

@ObjectType({ description: 'The shop’s people: admins and staff, and the invitations not accepted yet.' })
export class StaffList {
  @Field(() => [User], { description: 'The admin and staff accounts.' })
  members!: User[];

  @Field(() => [StaffInvitation], { description: 'The invitations not accepted yet.' })
  invitations!: StaffInvitation[];
}

@ObjectType({ description: 'A new invitation, with its link (shown once: only a hash of it is kept).' })
export class StaffInvitationPayload {
  @Field(() => StaffInvitation, { description: 'The invitation as it is listed from now on.' })
  invitation!: StaffInvitation;

  @Field(() => String, { description: 'The link the invitation e-mail carries, to pass on by hand if the e-mail does not arrive.' })
  acceptUrl!: string;
}

@InputType({ description: 'An invitation accepted: its token, and the new account’s username and password.' })
export class AcceptStaffInvitationInput {
  @Field(() => String, { description: 'The token of the `/staff/accept?token=…` link.' })
  token!: string;

  @Field(() => String, { description: "3 to 32 characters: letters, digits, '_', '.' or '-'." })
  username!: string;

  @Field(() => String, { description: 'At least 8 characters.' })
  password!: string;
}
