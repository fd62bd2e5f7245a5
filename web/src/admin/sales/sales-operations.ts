import { graphql } from '../../apollo/generated';

export const SalesSummaryQuery = graphql(`
  query SalesSummary($timeZone: String, $days: Int, $from: String, $to: String, $bucket: SalesBucket) {
    salesSummary(timeZone: $timeZone, days: $days, from: $from, to: $to, bucket: $bucket) {
      timeZone
      from
      to
      dayCount
      bucket
      previousFrom
      previousTo
      totals {
        gross { ...SalesTotals_amount }
        refunds { ...SalesTotals_amount }
        net { ...SalesTotals_amount }
        averageOrder { ...SalesTotals_amount }
        orders { ...SalesTotals_count }
        cardsSent { ...SalesTotals_count }
        cardsOpened { ...SalesTotals_count }
      }
      periods {
        from
        to
        gross
        refunds
        net
        orders
        averageOrder
        cardsSent
        cardsOpened
      }
      topProducts {
        productId
        name
        units
        revenue
      }
      promotions {
        kind
        name
        orders
        revenue
        saved
      }
    }
  }

  fragment SalesTotals_amount on SalesAmount {
    value
    previous
    change
  }

  fragment SalesTotals_count on SalesCount {
    value
    previous
    change
  }
`);
