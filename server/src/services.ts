import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from './config.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BlogService } from './modules/blog/blog.service.js';
import { CategoryService } from './modules/catalogue/category.service.js';
import { ProductTypeService } from './modules/catalogue/product-type.service.js';
import { ProductService } from './modules/catalogue/product.service.js';
import { TokenService } from './modules/auth/token.service.js';
import { Passwords, type PasswordHashCost } from './modules/auth/passwords.js';
import { MediaService } from './modules/media/media.service.js';
import { LocalDiskStorage, type MediaStorage } from './modules/media/media-storage.js';
import { DeliveryService } from './modules/mail/delivery.service.js';
import { Foreground } from './core/foreground.js';
import { EcardService } from './modules/ecard/ecard.service.js';
import { createMailer, type Mailer } from './modules/mail/mailer.js';
import { MailQueue } from './modules/mail/mail-queue.js';
import { OrderEmails, OrderMailKind } from './modules/orders/order-emails.js';
import { EcardMailKind } from './modules/ecard/ecard-emails.js';
import { OrderService } from './modules/orders/order.service.js';
import { EcardLoopService } from './modules/ecard/ecard-loop.service.js';
import { MyOrdersService } from './modules/orders/my-orders.service.js';
import { staffMembers } from './modules/auth/staff-accounts.js';
import { OrderAccountData } from './modules/orders/order-account-data.js';
import { RefundService } from './modules/orders/refund.service.js';
import { SalesService } from './modules/orders/sales.service.js';
import type { PaymentProvider } from './modules/payments/payment-provider.js';
import { TestPaymentProvider } from './modules/payments/test-payment-provider.js';
import type { StripePaymentProvider } from './modules/payments/stripe-payment-provider.js';
import { StripeWebhooks } from './modules/checkout/payment/stripe-webhooks.js';
import { PendingOrderSweep } from './modules/checkout/pending-orders.js';
import { CheckoutService } from './modules/checkout/checkout.service.js';
import { CardPreviews } from './modules/checkout/card-preview.js';
import type { RecipientCheck } from './modules/checkout/card-recipients.js';
import { RateLimits, rateLimitRules } from './modules/limits/rate-limits.js';
import { ApiRequestLimits } from './modules/limits/api-request-limits.js';
import { DiscountService } from './modules/discount/discount.service.js';
import { AutomaticDiscountService } from './modules/discount/automatic-discount.service.js';
import { SaleService } from './modules/promotions/sale.service.js';
import { GiftCardService } from './modules/gift-cards/gift-card.service.js';
import { MembershipService } from './modules/memberships/membership.service.js';
import { MembershipRenewals } from './modules/memberships/membership-renewals.js';
import { GiftMembershipService } from './modules/memberships/gift-membership.service.js';
import { MembershipBilling } from './modules/memberships/membership-billing.js';
import { MembershipBillingEvents } from './modules/memberships/membership-billing-events.js';
import { User } from './modules/auth/user.entity.js';
import { SettingsService } from './modules/settings/settings.service.js';
import type { Logger } from 'pino';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ReadCache } from './core/read-cache.js';
import { AuditService } from './modules/audit/audit.service.js';
import { CustomersService } from './modules/customers/customers.service.js';
import { StaffService } from './modules/staff/staff.service.js';
import { EmailProblemsService } from './modules/email-problems/email-problems.service.js';
import { AccountLinks } from './modules/auth/account-links.js';
import { AccountEmails } from './modules/auth/account-emails.js';
import { PasswordResetService } from './modules/auth/password-reset.service.js';
import { EmailAddressService } from './modules/auth/email-address.service.js';
import { wantsOpenedNotices } from './modules/auth/account-notices.js';
import { AccountSettingsService } from './modules/auth/account-settings.service.js';
import { RecipientConsent } from './modules/consent/recipient-consent.service.js';
import { ContactService } from './modules/contacts/contact.service.js';
import { OccasionReminders } from './modules/contacts/occasion-reminders.js';
import { registerReminderEmails } from './modules/contacts/reminder-emails.js';
import { GroupCardService } from './modules/group-card/group-card.service.js';
import { GroupCardOwnerService } from './modules/group-card/group-card-owner.service.js';
import { GroupCardEmails, GROUP_CARD_RECIPIENT_KINDS } from './modules/group-card/group-card-emails.js';
import { categoryPathNames, mainImagePath } from './modules/catalogue/index.js';
import { ApiKeyService } from './modules/api-keys/api-key.service.js';
import { WebhookOutbox } from './modules/webhooks/webhook-outbox.js';
import { WebhookService } from './modules/webhooks/webhook.service.js';
import { WebhookDeliveries } from './modules/webhooks/webhook-deliveries.js';
import { registerWebhookEmails } from './modules/webhooks/webhook-emails.js';
import { systemLookup, type HostLookup } from './modules/webhooks/webhook-address.js';
import { customerEventData, Role } from './modules/auth/index.js';

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
  ecards: EcardService;
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

/** What a running shop is given rather than configured: its clock and payment providers (tests swap them). */
export interface ServiceDeps {
  log: Logger;
  clock?: () => Date;
  /** The providers the shop can charge with; PAYMENT_PROVIDER picks one of them (default: the test provider; a running shop passes createPaymentProviders's). */
  paymentProviders?: PaymentProvider[];
  /** Sends the shop's e-mail; by default SMTP_URL or the outbox directory. */
  mailer?: Mailer;
  /** Where media bytes go; by default the configured bucket (`S3_BUCKET`) or `DATA_DIR/uploads`. */
  storage?: MediaStorage;
  /** The cost passwords are hashed at; by default PASSWORD_HASH_COST (tests hash their throwaway passwords cheaply). */
  passwordHashCost?: PasswordHashCost;
  /** How webhook hosts are resolved (the system's resolver by default; tests point names where they like). */
  webhookLookup?: HostLookup;
}

/** The provider PAYMENT_PROVIDER names, or null (payments not set up) with the reason logged once. */
export function selectPaymentProvider(config: AppConfig, available: PaymentProvider[], log: Logger): PaymentProvider | null {
  const apiBase = config.stripe?.apiBase;
  if (apiBase) log.warn({ stripeApiBase: `${apiBase.protocol}://${apiBase.host}:${apiBase.port}` }, 'STRIPE_API_BASE is set: the Stripe client talks to this host instead of Stripe');
  if (!config.paymentProvider) {
    log.warn('payments are not set up (PAYMENT_PROVIDER is not set in production): checkout answers PAYMENTS_UNAVAILABLE');
    return null;
  }
  const provider = available.find((p) => p.name === config.paymentProvider) ?? null;
  if (!provider) {
    const hint = config.paymentProvider === 'stripe' ? ' (Stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET)' : '';
    log.error({ provider: config.paymentProvider }, `the payment provider named by PAYMENT_PROVIDER is not available${hint}: checkout answers PAYMENTS_UNAVAILABLE`);
  }
  else if (config.production && provider.name === 'test') log.warn('PAYMENT_PROVIDER=test in production: orders are "paid" with test cards and nothing is charged');
  return provider;
}

/**
 * The providers the configuration sets up: the test provider, and Stripe when its keys are given
 * (its client is loaded only then: a shop that charges no card through Stripe never holds it).
 */
export async function createPaymentProviders(config: Pick<AppConfig, 'stripe'>): Promise<PaymentProvider[]> {
  if (!config.stripe) return [new TestPaymentProvider()];
  const { StripePaymentProvider } = await import('./modules/payments/stripe-payment-provider.js');
  return [new TestPaymentProvider(), new StripePaymentProvider(config.stripe)];
}

/**
 * The media storage the configuration names: the S3-compatible bucket when `S3_BUCKET` is set (the
 * AWS SDK is loaded only then), else the local disk under `DATA_DIR/uploads`.
 */
export async function createMediaStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): Promise<MediaStorage> {
  if (!config.s3) return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
  const { S3Storage } = await import('./modules/media/s3-storage.js');
  return new S3Storage(config.s3);
}

/**
 * Where uploads are received and checked before they are stored: beside the uploads on the local
 * disk (storing is then a rename), or in the system's temporary directory when the media live in a
 * bucket (no media byte goes into DATA_DIR then).
 */
export function stagingRoot(config: Pick<AppConfig, 's3' | 'dataDir'>): string {
  return config.s3 ? path.join(os.tmpdir(), 'art-and-song-cards', 'uploads') : path.join(config.dataDir, 'tmp', 'uploads');
}

export function createServices(config: AppConfig, jwtSecret: string, deps: ServiceDeps): Services {
  const clock = deps.clock ?? (() => new Date());
  const tokens = new TokenService(jwtSecret, config.tokenTtlSeconds);
  const limits = new RateLimits(rateLimitRules(config));
  const cache = new ReadCache({ maxBytes: config.readCacheMb * 1024 * 1024 });
  // The features tell the webhook endpoints of their changes in their own transactions.
  const webhookEvents = new WebhookOutbox({ cache, clock });
  const blog = new BlogService(cache);
  const categories = new CategoryService(cache, webhookEvents);
  const products = new ProductService(cache, webhookEvents);
  const productTypes = new ProductTypeService((ctx, typeId) => products.countOfType(ctx, typeId), cache);
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom, domain: new URL(config.publicUrl).hostname, poolSize: config.smtpPoolSize, timeoutMs: config.smtpTimeoutSeconds * 1000, dkim: config.dkim });
  const mail = new MailQueue(clock);
  const promotions = new SaleService(clock, cache);
  // The announcement bar shows a running sale's banner.
  const settings = new SettingsService(cache, (em) => promotions.runningBanner(em));
  // The e-mail says whose it is (name, support address, sender's name) as the owner set it, read once per batch.
  mail.useShopIdentity((em) => settings.mailIdentity(em));
  // The requests this process answers: sending makes room for them (the gateway counts them).
  const foreground = new Foreground();
  const deliveries = new DeliveryService(mail, { mailer, clock, log: deps.log, concurrency: config.smtpPoolSize, maxPerSecond: config.mailMaxPerSecond, leaseMs: config.mailLeaseSeconds * 1000, yieldTo: foreground });
  const recipients = new RecipientConsent({ baseUrl: config.publicUrl });
  const orderEmails = new OrderEmails({ mail, baseUrl: config.publicUrl, clock, recipients, webhooks: webhookEvents });
  const media = new MediaService({
    storage: deps.storage ?? defaultStorage(config),
    stagingDir: stagingRoot(config),
    maxFileBytes: Math.floor(config.maxUploadMb * 1024 * 1024),
    cache,
  });
  const ecardLoop = new EcardLoopService({ limits, mail, baseUrl: config.publicUrl, clock, reminderAfterMs: Math.round(config.reminderAfterHours * 3_600_000), recipients, wantsOpenedNotices, webhooks: webhookEvents });
  // Cards and reminders go to people who never signed up: withheld when they said no, with List-Unsubscribe otherwise.
  recipients.protect(mail, [OrderMailKind.CARD, OrderMailKind.CARD_RESEND, EcardMailKind.REMINDER]);
  orderEmails.onCardsDelivered = (em, cards, now) => ecardLoop.cardsDelivered(em, cards, now);
  const automaticDiscounts = new AutomaticDiscountService(clock, cache);
  const discounts = new DiscountService(clock, limits, automaticDiscounts);
  const giftCards = new GiftCardService({ clock, limits, mail, baseUrl: config.publicUrl, designOf: mainImagePath });
  const providers = deps.paymentProviders ?? [new TestPaymentProvider()];
  const groupCards = new GroupCardService({ limits, clock, secret: jwtSecret });
  // The signing page's sample message suits the card's occasion: the catalogue knows what a card is for.
  groupCards.occasionOf = categoryPathNames;
  const groupCardEmails = new GroupCardEmails({ mail, baseUrl: config.publicUrl, clock });
  // Signing invitations and their reminders go to people who never signed up, like cards.
  recipients.protect(mail, GROUP_CARD_RECIPIENT_KINDS);
  const occasionReminders = new OccasionReminders({ clock, log: deps.log, secret: jwtSecret });
  registerReminderEmails(mail, occasionReminders, config.publicUrl);
  const contacts = new ContactService(occasionReminders);
  const orders = new OrderService({ mail, orderEmails, groupCardItems: (em) => groupCards.itemIds(em), cardReplies: (em, itemIds) => ecardLoop.cardReplies(em, itemIds) });
  const recipientChecks: RecipientCheck[] = [(tx, list) => recipients.assertAccepting(tx.em, list)];
  const provider = selectPaymentProvider(config, providers, deps.log);
  const testPeriodSeconds = config.membershipTestPeriodSeconds ?? null;
  const emailOf = async (em: EntityManager, userId: number) => (await em.findOne(User, userId))?.email ?? null;
  const membershipBilling = new MembershipBilling({ clock, provider, emailOf, log: deps.log });
  const memberships = new MembershipService({ clock, provider, mail, baseUrl: config.publicUrl, testPeriodSeconds, billing: membershipBilling });
  const membershipEvents = new MembershipBillingEvents({ clock, billing: membershipBilling, mail, emailOf });
  const giftMemberships = new GiftMembershipService({ clock, limits, mail, baseUrl: config.publicUrl, testPeriodSeconds, productOfType: (ctx, name) => productTypes.firstOfTypeNamed(ctx, name) });
  const checkout = new CheckoutService({
    provider,
    benefits: (em, userId) => memberships.benefitsFor(em, userId),
    limits,
    media,
    orderEmails,
    clock,
    discounts,
    giftCards,
    giftMemberships,
    groupCards,
    products: { productOf: async (ctx, id) => (await products.storefront(ctx, id)).product },
    // An address that said no is refused at checkout (RECIPIENT_UNSUBSCRIBED), every recipient of every line in one query.
    recipientChecks,
    rememberTimeZone: async (ctx, userId, timeZone) => void (await contacts.rememberTimeZone(ctx, userId, timeZone)),
    webhooks: webhookEvents,
  });
  const auth = new AuthService(tokens, limits, new Passwords(deps.passwordHashCost), clock);
  const links = new AccountLinks(jwtSecret);
  const accountMail = new AccountEmails(mail, links, config.publicUrl, clock);
  // The orders of an account: in "Download my data", taken out of it when it is deleted, joined to it once it proves its address.
  const orderData = new OrderAccountData({ mail, baseUrl: config.publicUrl, cardExtras: (em, itemIds) => ecardLoop.exportReplies(em, itemIds) });
  const addresses = new EmailAddressService({ auth, links, mail: accountMail, limits, clock, addressProven: async (em, userId, email) => void (await orderData.joinGuestOrders(em, userId, email)) });
  const accountSettings = new AccountSettingsService({ auth, addresses, clock, mail });
  // "Download my data" holds the orders with their cards and replies, and the address book; "Delete my
  // account" takes the purchaser out of their orders (the address book goes by its foreign key).
  accountSettings.registerExportSection('orders', (em, userId) => orderData.export(em, userId));
  accountSettings.registerExportSection('contacts', (em, userId) => contacts.exportData(em, userId));
  accountSettings.registerErasure(async (em, account) => void (await orderData.erase(em, account)));
  // A membership billed by the provider stops being charged before its account goes (the rows go by their foreign keys).
  accountSettings.registerErasure((em, account) => membershipBilling.endAllOf(em, account.id));
  auth.onRegistered = async (em, user) => {
    await addresses.sendConfirmation(em, user);
    await webhookEvents.emit(em, 'customer.created', () => [customerEventData(user)]);
  };
  registerWebhookEmails(mail, config.publicUrl);
  const webhookLookup = deps.webhookLookup ?? systemLookup;
  auth.onPasswordChanged = (em, userId) => links.retireAll(em, userId, clock());
  const services = {
    cache,
    limits,
    // Counted on the real clock, as the limits' store counts its windows.
    apiRequests: new ApiRequestLimits(limits),
    auth,
    settings,
    media,
    blog,
    categories,
    productTypes,
    products,
    orders,
    checkout,
    cardPreviews: new CardPreviews({ clock, limits, mail, baseUrl: config.publicUrl, secret: jwtSecret, recipientChecks, viewerEmail: async (ctx) => (await auth.requireUser(ctx)).email }),
    mail,
    deliveries,
    foreground,
    ecards: new EcardService(),
    ecardLoop,
    myOrders: new MyOrdersService({ mail, orderEmails, clock, orders, groupCards }),
    discounts,
    automaticDiscounts,
    promotions,
    giftCards,
    memberships,
    giftMemberships,
    membershipRenewals: new MembershipRenewals({ clock, provider, mail, log: deps.log, testPeriodSeconds, emailOf, billing: membershipBilling }),
    membershipEvents,
    clock,
    refunds: new RefundService({ providers, clock, mail, baseUrl: config.publicUrl, cardsWithdrawn: (em, itemIds) => ecardLoop.cardsWithdrawn(em, itemIds), toGiftCard: (em, orderId, amount) => giftCards.refundOrder(em, orderId, amount), giftCardsRefunded: (em, itemIds) => giftCards.refundPurchased(em, itemIds), giftMembershipsRefunded: (em, itemIds) => giftMemberships.refundPurchased(em, itemIds), webhooks: webhookEvents }),
    sales: new SalesService(clock),
    stripeWebhooks: new StripeWebhooks({ provider: providers.find((p): p is StripePaymentProvider => p.name === 'stripe') ?? null, checkout, clock, billing: (ctx, event) => membershipEvents.handle(ctx, event) }),
    staff: new StaffService({ auth, mail, baseUrl: config.publicUrl, clock }),
    customers: new CustomersService(),
    audit: new AuditService((em) => staffMembers(em)),
    emailProblems: new EmailProblemsService(mail),
    passwordReset: new PasswordResetService({ links, mail: accountMail, limits, passwords: auth.passwords, clock, addressProven: (em, userId, email, now) => addresses.addressProven(em, userId, email, now) }),
    accountLinks: links,
    addresses,
    accountSettings,
    recipients,
    contacts,
    occasionReminders,
    groupCards,
    groupCardOwners: new GroupCardOwnerService({ cards: groupCards, clock, orders, mail: groupCardEmails }),
    groupCardEmails,
    abandonedCheckouts: new PendingOrderSweep({ providers, checkout, clock, log: deps.log }),
    apiKeys: new ApiKeyService({ cache, clock }),
    webhooks: new WebhookService({ outbox: webhookEvents, clock, allowPrivate: config.webhookAllowPrivate, lookup: webhookLookup }),
    webhookEvents,
    webhookDeliveries: new WebhookDeliveries({
      clock,
      log: deps.log,
      mail,
      outbox: webhookEvents,
      adminEmails: async (em) => (await staffMembers(em)).filter((member) => member.role === Role.ADMIN).map((member) => member.email),
      allowPrivate: config.webhookAllowPrivate,
      lookup: webhookLookup,
      leaseMs: config.webhookLeaseSeconds * 1000,
    }),
  };
  services.media.registerUsageProvider(blog.mediaUsages);
  services.media.registerUsageProvider(categories.mediaUsages);
  services.media.registerUsageProvider(products.mediaUsages);
  return services;
}

function defaultStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): MediaStorage {
  if (config.s3) throw new Error('With S3_BUCKET set, pass the storage made by createMediaStorage()');
  return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}
