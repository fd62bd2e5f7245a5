import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122173004_initial } from './Migration20261122173004_initial.js';
import { Migration20261122180040_media } from './Migration20261122180040_media.js';
import { Migration20261122184053_blog } from './Migration20261122184053_blog.js';
import { Migration20261122193136_catalogue } from './Migration20261122193136_catalogue.js';
import { Migration20261123012032_products } from './Migration20261123012032_products.js';
import { Migration20261123033928_orders } from './Migration20261123033928_orders.js';
import { Migration20261123092957_abuse_limits } from './Migration20261123092957_abuse_limits.js';
import { Migration20261123130000_ecard_loop } from './Migration20261123130000_ecard_loop.js';
import { Migration20261123140000_shop_operations } from './Migration20261123140000_shop_operations.js';
import { Migration20261125170000_ecard_page_changes } from './Migration20261125170000_ecard_page_changes.js';
import { Migration20261125200000_staff_and_audit } from './Migration20261125200000_staff_and_audit.js';
import { Migration20261125200100_customers_and_partial_refunds } from './Migration20261125200100_customers_and_partial_refunds.js';
import { Migration20261125190000_hardening } from './Migration20261125190000_hardening.js';
import { Migration20261126100000_mail_queue_generic } from './Migration20261126100000_mail_queue_generic.js';
import { Migration20261126100100_mail_rate } from './Migration20261126100100_mail_rate.js';
import { Migration20261126110000_accounts_consent } from './Migration20261126110000_accounts_consent.js';
import { Migration20261126120000_contacts } from './Migration20261126120000_contacts.js';
import { Migration20261126130000_group_cards } from './Migration20261126130000_group_cards.js';
import { Migration20261126140000_mail_claim_token } from './Migration20261126140000_mail_claim_token.js';
import { Migration20261127120000_mail_subjects } from './Migration20261127120000_mail_subjects.js';
import { Migration20261128010000_remembered_sessions } from './Migration20261128010000_remembered_sessions.js';

/** Every migration in the order it applies; `npm run migration:create` writes new files beside this one. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122173004_initial', class: Migration20261122173004_initial },
  { name: 'Migration20261122180040_media', class: Migration20261122180040_media },
  { name: 'Migration20261122184053_blog', class: Migration20261122184053_blog },
  { name: 'Migration20261122193136_catalogue', class: Migration20261122193136_catalogue },
  { name: 'Migration20261123012032_products', class: Migration20261123012032_products },
  { name: 'Migration20261123033928_orders', class: Migration20261123033928_orders },
  { name: 'Migration20261123092957_abuse_limits', class: Migration20261123092957_abuse_limits },
  { name: 'Migration20261123130000_ecard_loop', class: Migration20261123130000_ecard_loop },
  { name: 'Migration20261123140000_shop_operations', class: Migration20261123140000_shop_operations },
  { name: 'Migration20261125170000_ecard_page_changes', class: Migration20261125170000_ecard_page_changes },
  { name: 'Migration20261125190000_hardening', class: Migration20261125190000_hardening },
  { name: 'Migration20261125200000_staff_and_audit', class: Migration20261125200000_staff_and_audit },
  { name: 'Migration20261125200100_customers_and_partial_refunds', class: Migration20261125200100_customers_and_partial_refunds },
  { name: 'Migration20261126100000_mail_queue_generic', class: Migration20261126100000_mail_queue_generic },
  { name: 'Migration20261126100100_mail_rate', class: Migration20261126100100_mail_rate },
  { name: 'Migration20261126110000_accounts_consent', class: Migration20261126110000_accounts_consent },
  { name: 'Migration20261126120000_contacts', class: Migration20261126120000_contacts },
  { name: 'Migration20261126130000_group_cards', class: Migration20261126130000_group_cards },
  { name: 'Migration20261126140000_mail_claim_token', class: Migration20261126140000_mail_claim_token },
  { name: 'Migration20261127120000_mail_subjects', class: Migration20261127120000_mail_subjects },
  { name: 'Migration20261128010000_remembered_sessions', class: Migration20261128010000_remembered_sessions },
];
