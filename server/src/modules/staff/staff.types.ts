import { Field, InputType, ObjectType } from 'type-graphql';
import { Role, User } from '../auth/index.js';
import { StaffInvitation } from './staff-invitation.entity.js';

@InputType()
export class InviteStaffInput {
  @Field(() => String)
  email!: string;

  @Field(() => Role, { description: 'ADMIN or STAFF.' })
  role!: Role;
}

@ObjectType({ description: 'The shop’s people: admins and staff, and the invitations not accepted yet.' })
export class StaffList {
  @Field(() => [User])
  members!: User[];

  @Field(() => [StaffInvitation])
  invitations!: StaffInvitation[];
}

@ObjectType({ description: 'A new invitation, with its link (shown once: only a hash of it is kept).' })
export class StaffInvitationPayload {
  @Field(() => StaffInvitation)
  invitation!: StaffInvitation;

  @Field(() => String, { description: 'The link the invitation e-mail carries, to pass on by hand if the e-mail does not arrive.' })
  acceptUrl!: string;
}

@InputType()
export class AcceptStaffInvitationInput {
  @Field(() => String)
  token!: string;

  @Field(() => String)
  username!: string;

  @Field(() => String)
  password!: string;
}
