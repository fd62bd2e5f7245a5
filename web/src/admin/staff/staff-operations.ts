import { graphql } from '../../apollo/generated';

export const StaffQuery = graphql(`
  query AdminStaff {
    staff {
      members {
        id
        username
        email
        role
        createdAt
      }
      invitations {
        id
        email
        role
        expiresAt
        createdAt
        emailError
      }
    }
  }
`);

export const InviteStaffMutation = graphql(`
  mutation InviteStaff($input: InviteStaffInput!) {
    inviteStaff(input: $input) {
      acceptUrl
      invitation {
        id
        email
        role
        emailError
      }
    }
  }
`);

export const ChangeStaffRoleMutation = graphql(`
  mutation ChangeStaffRole($id: Int!, $role: Role!) {
    changeStaffRole(id: $id, role: $role) {
      id
      role
    }
  }
`);

export const RemoveStaffMutation = graphql(`
  mutation RemoveStaff($id: Int!) {
    removeStaff(id: $id)
  }
`);

export const WithdrawStaffInvitationMutation = graphql(`
  mutation WithdrawStaffInvitation($id: Int!) {
    withdrawStaffInvitation(id: $id)
  }
`);
