import { graphql } from '../../apollo/generated';

/** What the Memberships view shows of a plan (its table row and its dialog). */
export const MembershipPlanFieldsFragment = graphql(`
  fragment MembershipPlanFields on MembershipPlan {
    id
    name
    price
    period
    ecardsIncluded
    percentOffOther
    active
    createdAt
  }
`);

export const AdminMembershipPlansQuery = graphql(`
  query AdminMembershipPlans {
    adminMembershipPlans {
      ...MembershipPlanFields
    }
    giftMembershipProductId
    productTypes {
      id
      name
    }
  }
`);

export const CreateMembershipPlanMutation = graphql(`
  mutation CreateMembershipPlan($input: MembershipPlanInput!) {
    createMembershipPlan(input: $input) {
      ...MembershipPlanFields
    }
  }
`);

export const UpdateMembershipPlanMutation = graphql(`
  mutation UpdateMembershipPlan($id: Int!, $input: MembershipPlanInput!) {
    updateMembershipPlan(id: $id, input: $input) {
      ...MembershipPlanFields
    }
  }
`);
