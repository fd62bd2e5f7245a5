import type { AuthService } from './modules/auth/auth.service.js';
import type { BlogService } from './modules/blog/blog.service.js';
import type { CategoryService } from './modules/catalogue/category.service.js';
import type { ProductTypeService } from './modules/catalogue/product-type.service.js';
import type { ProductService } from './modules/catalogue/product.service.js';
import type { MediaService } from './modules/media/media.service.js';
import type { DeliveryService } from './modules/mail/delivery.service.js';
import type { Foreground } from './core/foreground.js';
import type { ProductPages } from './modules/catalogue/index.js';
import type { EcardService } from './modules/ecard/ecard.service.js';
import type { EcardPages } from './modules/ecard/ecard-pages.js';
import type { MailQueue } from './modules/mail/mail-queue.js';
import type { OrderService } from './modules/orders/order.service.js';
import type { EcardLoopService } from './modules/ecard/ecard-loop.service.js';
import type { MyOrdersService } from './modules/orders/my-orders.service.js';
import type { RefundService } from './modules/orders/refund.service.js';
import type { SalesService } from './modules/orders/sales.service.js';
import type { StripeWebhooks } from './modules/checkout/payment/stripe-webhooks.js';
import type { PendingOrderSweep } from './modules/checkout/pending-orders.js';
import type { CheckoutService } from './modules/checkout/checkout.service.js';
import type { CardPreviews } from './modules/checkout/card-preview.js';
import type { RateLimits } from './modules/limits/rate-limits.js';
import type { ApiRequestLimits } from './modules/limits/api-request-limits.js';
import type { DiscountService } from './modules/discount/discount.service.js';
import type { AutomaticDiscountService } from './modules/discount/automatic-discount.service.js';
import type { SaleService } from './modules/promotions/sale.service.js';
import type { GiftCardService } from './modules/gift-cards/gift-card.service.js';
import type { MembershipService } from './modules/memberships/membership.service.js';
import type { MembershipRenewals } from './modules/memberships/membership-renewals.js';
import type { GiftMembershipService } from './modules/memberships/gift-membership.service.js';
import type { MembershipBillingEvents } from './modules/memberships/membership-billing-events.js';
import type { SettingsService } from './modules/settings/settings.service.js';
import type { ReadCache } from './core/read-cache.js';
import type { AuditService } from './modules/audit/audit.service.js';
import type { CustomersService } from './modules/customers/customers.service.js';
import type { StaffService } from './modules/staff/staff.service.js';
import type { EmailProblemsService } from './modules/email-problems/email-problems.service.js';
import type { AccountLinks } from './modules/auth/account-links.js';
import type { PasswordResetService } from './modules/auth/password-reset.service.js';
import type { EmailAddressService } from './modules/auth/email-address.service.js';
import type { AccountSettingsService } from './modules/auth/account-settings.service.js';
import type { RecipientConsent } from './modules/consent/recipient-consent.service.js';
import type { ContactService } from './modules/contacts/contact.service.js';
import type { OccasionReminders } from './modules/contacts/occasion-reminders.js';
import type { GroupCardService } from './modules/group-card/group-card.service.js';
import type { GroupCardOwnerService } from './modules/group-card/group-card-owner.service.js';
import type { GroupCardEmails } from './modules/group-card/group-card-emails.js';
import type { ApiKeyService } from './modules/api-keys/api-key.service.js';
import type { WebhookOutbox } from './modules/webhooks/webhook-outbox.js';
import type { WebhookService } from './modules/webhooks/webhook.service.js';
import type { WebhookDeliveries } from './modules/webhooks/webhook-deliveries.js';

/** The services of the product: one instance each per process, shared by GraphQL and REST. */
export interface Services {
  /** The storefront read cache, shared by REST and GraphQL, kept coherent across processes by the change feed. */
  cache: ReadCache;
  limits: RateLimits;
  /** The API's request limits per key and per client address (RateLimit-* headers). */
  apiRequests: ApiRequestLimits;
  auth: AuthService;
  settings: SettingsService;
  media: MediaService;
  blog: BlogService;
  categories: CategoryService;
  productTypes: ProductTypeService;
  products: ProductService;
  orders: OrderService;
  /** Pricing carts, charging them and placing their orders. */
  checkout: CheckoutService;
  /** A card as its recipient will see it, before it is bought, and "Send a test to myself". */
  cardPreviews: CardPreviews;
  /** The e-mail queue: features register their kinds and queue their e-mails through it. */
  mail: MailQueue;
  /** Sends the queue's e-mail (where the background jobs run). */
  deliveries: DeliveryService;
  /** The requests this process is answering (counted by the gateway; the mail queue makes room for them). */
  foreground: Foreground;
  /** Product pages drawn in the background and stored for every process (the pages' store and its queue). */
  productPages: ProductPages;
  ecards: EcardService;
  /** Cards' pages as their recipients open them, kept drawn in the database. */
  ecardPages: EcardPages;
  ecardLoop: EcardLoopService;
  /** "My orders": a signed-in shopper's orders and what they can do with their cards. */
  myOrders: MyOrdersService;
  discounts: DiscountService;
  /** Discounts without a code ("3 cards, 15 % off"): the admin's list; checkout asks `discounts` for the one a cart gets. */
  automaticDiscounts: AutomaticDiscountService;
  /** Scheduled sales (contract section 17). */
  promotions: SaleService;
  /** Gift cards: issued by admins, spent at checkout, refunded back (contract section 18). */
  giftCards: GiftCardService;
  /** Membership plans and shoppers' memberships (contract section 18). */
  memberships: MembershipService;
  /** Memberships given as presents: issued when paid, redeemed on /membership. */
  giftMemberships: GiftMembershipService;
  /** Renews, ends and reminds memberships on the shop's clock (where the background jobs run). */
  membershipRenewals: MembershipRenewals;
  /** The provider's events about memberships it bills (Stripe Billing), each applied once. */
  membershipEvents: MembershipBillingEvents;
  /** The clock every service reads (tests move it). */
  clock: () => Date;
  refunds: RefundService;
  sales: SalesService;
  stripeWebhooks: StripeWebhooks;
  staff: StaffService;
  customers: CustomersService;
  audit: AuditService;
  emailProblems: EmailProblemsService;
  /** "Forgot password?" and its links. */
  passwordReset: PasswordResetService;
  /** The links e-mailed about accounts (kept as digests; swept once expired). */
  accountLinks: AccountLinks;
  /** The account's address: confirmation and change. */
  addresses: EmailAddressService;
  /** Account settings: notices, "Download my data", "Delete my account". */
  accountSettings: AccountSettingsService;
  /** Recipients who said no: unsubscribe links, and the check every sender of cards asks. */
  recipients: RecipientConsent;
  /** The shoppers' address books. */
  contacts: ContactService;
  /** Occasion reminders: their times, the sweep that queues the due ones, and the links that stop them. */
  occasionReminders: OccasionReminders;
  /** Group cards by their signing links: signing, changing and removing signatures. */
  groupCards: GroupCardService;
  /** Group cards for their purchasers: signatures, deadline, invitations. */
  groupCardOwners: GroupCardOwnerService;
  /** Group cards' invitations and reminders (their `unsubscribed` and `headers` hooks are where contract section 11 plugs in). */
  groupCardEmails: GroupCardEmails;
  /** Cancels and drops checkouts left pending (run where the background jobs run). */
  abandonedCheckouts: PendingOrderSweep;
  /** API keys: created and revoked by admins, and the callers the requests signed with one stand for. */
  apiKeys: ApiKeyService;
  /** Webhook endpoints as admins manage them, and their deliveries. */
  webhooks: WebhookService;
  /** Where the features write their webhook events, in the transactions of their changes. */
  webhookEvents: WebhookOutbox;
  /** Delivers the webhook events (where the background jobs run). */
  webhookDeliveries: WebhookDeliveries;
}
