/** The orders the shop can be browsed in (contract section 15); NAME unless asked. */
export enum ProductSort {
  NAME = 'NAME',
  NEWEST = 'NEWEST',
  PRICE_ASC = 'PRICE_ASC',
  PRICE_DESC = 'PRICE_DESC',
}
