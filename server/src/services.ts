import path from 'node:path';
import { DEFAULT_LOCALE } from './rules/locales.js';
import type { AppConfig } from './config.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BlogService } from './modules/blog/blog.service.js';
import { CategoryService } from './modules/catalogue/category.service.js';
import { ProductTypeService } from './modules/catalogue/product-type.service.js';
import { ProductService } from './modules/catalogue/product.service.js';
import { TokenService } from './modules/auth/token.service.js';
import { Passwords } from './modules/auth/passwords.js';
import { MediaService } from './modules/media/media.service.js';
import { DeliveryService } from './modules/mail/delivery.service.js';
import { Foreground } from './core/foreground.js';
import { EcardService } from './modules/ecard/ecard.service.js';
import { EcardPages } from './modules/ecard/ecard-pages.js';
import { createMailer } from './modules/mail/mailer.js';
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
import { TestPaymentProvider } from './modules/payments/test-payment-provider.js';
import { defaultStorage, selectPaymentProvider, stagingRoot, type ServiceDeps } from './outside-services.js';
import type { Services } from './service-registry.js';
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
import { ProductPages, categoryPathNames, mainImagePath } from './modules/catalogue/index.js';
import { ApiKeyService } from './modules/api-keys/api-key.service.js';
import { WebhookOutbox } from './modules/webhooks/webhook-outbox.js';
import { WebhookService } from './modules/webhooks/webhook.service.js';
import { WebhookDeliveries } from './modules/webhooks/webhook-deliveries.js';
import { registerWebhookEmails } from './modules/webhooks/webhook-emails.js';
import { systemLookup } from './modules/webhooks/webhook-address.js';
import { customerEventData, Role } from './modules/auth/index.js';

export { createMediaStorage, createPaymentProviders, selectPaymentProvider, stagingRoot, type ServiceDeps } from './outside-services.js';
export type { Services } from './service-registry.js';

/**
 * The composition root: makes every service of the product (see service-registry.ts for the list) and
 * wires them to one another, so that no module reaches into another for what it is handed here.
 */
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
  const localeOf = async (em: EntityManager, userId: number) => (await em.findOne(User, userId))?.locale ?? DEFAULT_LOCALE;
  const membershipBilling = new MembershipBilling({ clock, provider, emailOf, log: deps.log });
  const memberships = new MembershipService({ clock, provider, mail, baseUrl: config.publicUrl, testPeriodSeconds, billing: membershipBilling });
  const membershipEvents = new MembershipBillingEvents({ clock, billing: membershipBilling, mail, emailOf, localeOf });
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
    productPages: new ProductPages(deps.log),
    ecards: new EcardService(),
    ecardPages: new EcardPages({ log: deps.log, yieldTo: foreground }),
    ecardLoop,
    myOrders: new MyOrdersService({ mail, orderEmails, clock, orders, groupCards }),
    discounts,
    automaticDiscounts,
    promotions,
    giftCards,
    memberships,
    giftMemberships,
    membershipRenewals: new MembershipRenewals({ clock, provider, mail, log: deps.log, testPeriodSeconds, emailOf, localeOf, billing: membershipBilling }),
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
