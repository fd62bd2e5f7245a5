import { graphql } from '../../apollo/generated';

/** What a plan's card shows: its name, price and what it gives. */
export const MembershipPlanCardFragment = graphql(`
  fragment MembershipPlanCard_plan on MembershipPlan {
    id
    name
    price
    period
    ecardsIncluded
    percentOffOther
  }
`);

/** A shopper's membership as /membership shows it: where it stands, the card renewals charge and its payments. */
export const MembershipPageMembershipFragment = graphql(`
  fragment MembershipPage_membership on Membership {
    id
    status
    cardLast4
    currentPeriodStart
    currentPeriodEnd
    cancelAtPeriodEnd
    gift
    giftFrom
    pastDueSince
    endedAt
    createdAt
    plan {
      ...MembershipPlanCard_plan
    }
    charges {
      id
      amount
      periodStart
      periodEnd
      status
      message
      createdAt
    }
  }
`);

export const MembershipPlansQuery = graphql(`
  query MembershipPlans {
    membershipPlans {
      ...MembershipPlanCard_plan
    }
  }
`);

export const MyMembershipQuery = graphql(`
  query MyMembership {
    myMembership {
      ...MembershipPage_membership
    }
  }
`);

export const SubscribeMutation = graphql(`
  mutation Subscribe($planId: Int!, $payment: MembershipPaymentInput) {
    subscribe(planId: $planId, payment: $payment) {
      ...MembershipPage_membership
      paymentClientSecret
    }
  }
`);

export const CancelMembershipMutation = graphql(`
  mutation CancelMembership {
    cancelMembership {
      ...MembershipPage_membership
    }
  }
`);

export const ResumeMembershipMutation = graphql(`
  mutation ResumeMembership {
    resumeMembership {
      ...MembershipPage_membership
    }
  }
`);

export const RedeemGiftMembershipMutation = graphql(`
  mutation RedeemGiftMembership($code: String!) {
    redeemGiftMembership(code: $code) {
      ...MembershipPage_membership
    }
  }
`);

export const GiftMembershipProductQuery = graphql(`
  query GiftMembershipProduct {
    giftMembershipProductId
  }
`);
