import { graphql } from '../../apollo/generated';

export const SalesSummaryQuery = graphql(`
  query SalesSummary($timeZone: String) {
    salesSummary(timeZone: $timeZone) {
      timeZone
      revenue
      orders
      cardsSent
      cardsOpened
      days {
        day
        revenue
        orders
      }
    }
  }
`);
