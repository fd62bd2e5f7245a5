import { graphql } from '../../apollo/generated';

/** What a row of the sales table shows. */
export const SalesTableSaleFragment = graphql(`
  fragment SalesTable_sale on Sale {
    id
    name
    percentOff
    amountOff
    productIds
    categoryIds
    startsAt
    endsAt
    state
    pricedProducts
  }
`);

/** What the sale dialog edits. */
export const SaleDialogSaleFragment = graphql(`
  fragment SaleDialog_sale on Sale {
    id
    name
    percentOff
    amountOff
    productIds
    products {
      id
      name
    }
    categoryIds
    startsAt
    endsAt
    banner
  }
`);

export const PromotionSalesQuery = graphql(`
  query PromotionSales {
    sales {
      ...SalesTable_sale
      ...SaleDialog_sale
    }
  }
`);

export const CreateSaleMutation = graphql(`
  mutation CreateSale($input: SaleInput!) {
    createSale(input: $input) {
      ...SalesTable_sale
      ...SaleDialog_sale
    }
  }
`);

export const UpdateSaleMutation = graphql(`
  mutation UpdateSale($id: Int!, $input: SaleInput!) {
    updateSale(id: $id, input: $input) {
      ...SalesTable_sale
      ...SaleDialog_sale
    }
  }
`);

export const DeleteSaleMutation = graphql(`
  mutation DeleteSale($id: Int!) {
    deleteSale(id: $id)
  }
`);
