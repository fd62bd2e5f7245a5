/** The orders the shop can be browsed in (contract section 15); NAME unless asked. */
export enum ProductSort {
  NAME = 'NAME',
  NEWEST = 'NEWEST',
  PRICE_ASC = 'PRICE_ASC',
  PRICE_DESC = 'PRICE_DESC',
}

/** The orders of the console's list of every product (contract section 16); NAME unless asked. */
export enum AdminProductSort {
  NAME = 'NAME',
  PRICE_ASC = 'PRICE_ASC',
  PRICE_DESC = 'PRICE_DESC',
  /** Last changed first. */
  UPDATED = 'UPDATED',
}
