/** The promotions module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { SaleClock } from './sale-clock.js';
export { SALES_CHANGED_SIGNAL, type SaleService } from './sale.service.js';
export { Sale } from './sale.types.js';
