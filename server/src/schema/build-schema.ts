import 'reflect-metadata';
import { GraphQLObjectType, defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { buildSchemaSync, type NonEmptyArray } from 'type-graphql';
import { ACCESS_EXTENSION, SCOPES_EXTENSION, authorize, type Access, type ApiScope } from '../core/access.js';
import type { RequestContext } from '../core/context.js';
import { AppError, forbidden } from '../core/errors.js';
import { toGraphQLError } from './graphql-errors.js';
import { isDatabaseUnavailable, serviceUnavailable } from '../core/db-errors.js';
import { AuthResolver } from '../modules/auth/auth.resolver.js';
import { BlogResolver } from '../modules/blog/blog.resolver.js';
import { CategoryResolver } from '../modules/catalogue/category.resolver.js';
import { ProductTypeResolver } from '../modules/catalogue/product-type.resolver.js';
import { EGreetingCardResolver, ProductResolver } from '../modules/catalogue/product.resolver.js';
import { MediaFileResolver } from '../modules/media/media-file.resolver.js';
import { MediaFolderResolver } from '../modules/media/media-folder.resolver.js';
import { OrderItemResolver, OrderResolver } from '../modules/orders/order.resolver.js';
import { CartQuoteLineResolver, CheckoutResolver } from '../modules/checkout/checkout.resolver.js';
import { MyOrdersResolver } from '../modules/orders/my-orders.resolver.js';
import { EcardReplyResolver } from '../modules/ecard/ecard-reply.resolver.js';
import { DiscountResolver } from '../modules/discount/discount.resolver.js';
import { AutomaticDiscountResolver } from '../modules/discount/automatic-discount.resolver.js';
import { SaleResolver } from '../modules/promotions/sale.resolver.js';
import { GiftCardResolver } from '../modules/gift-cards/gift-card.resolver.js';
import { MembershipResolver } from '../modules/memberships/membership.resolver.js';
import { RefundResolver } from '../modules/orders/refund.resolver.js';
import { SalesResolver } from '../modules/orders/sales.resolver.js';
import { OrderPaymentResolver } from '../modules/checkout/payment/payment.resolver.js';
import { SettingsResolver } from '../modules/settings/settings.resolver.js';
import { AuditResolver } from '../modules/audit/audit.resolver.js';
import { CustomersResolver } from '../modules/customers/customers.resolver.js';
import { StaffResolver } from '../modules/staff/staff.resolver.js';
import { EmailProblemsResolver } from '../modules/email-problems/email-problems.resolver.js';
import { AccountSettingsResolver } from '../modules/auth/account-settings.resolver.js';
import { PasswordResetResolver } from '../modules/auth/password-reset.resolver.js';
import { ConsentResolver } from '../modules/consent/consent.resolver.js';
import { CardDeliveryResolver } from '../modules/orders/card-delivery.resolver.js';
import { ContactResolver } from '../modules/contacts/contact.resolver.js';
import { GroupCardDetailsResolver, GroupCardItemResolver, GroupCardResolver } from '../modules/group-card/group-card.resolver.js';
import { ApiKeyResolver } from '../modules/api-keys/api-key.resolver.js';
import { WebhookResolver } from '../modules/webhooks/webhook.resolver.js';
import type { Services } from '../services.js';

/**
 * Each resolver with how it is made: it is given its own service and nothing else. Without services
 * (building the schema text only) resolvers are made with none; they are never called then.
 */
const resolverFactories = new Map<Function, (services: Services) => unknown>([
  [AuthResolver, (s) => new AuthResolver(s.auth)],
  [SettingsResolver, (s) => new SettingsResolver(s.settings)],
  [MediaFolderResolver, (s) => new MediaFolderResolver(s.media)],
  [MediaFileResolver, (s) => new MediaFileResolver(s.media)],
  [BlogResolver, (s) => new BlogResolver(s.blog)],
  [ProductTypeResolver, (s) => new ProductTypeResolver(s.productTypes)],
  [CategoryResolver, (s) => new CategoryResolver(s.categories)],
  [ProductResolver, (s) => new ProductResolver(s.products)],
  [EGreetingCardResolver, () => new EGreetingCardResolver()],
  [OrderResolver, (s) => new OrderResolver(s.orders)],
  [CheckoutResolver, (s) => new CheckoutResolver(s.checkout)],
  [CartQuoteLineResolver, (s) => new CartQuoteLineResolver(s.checkout)],
  [OrderItemResolver, (s) => new OrderItemResolver(s.orders)],
  [MyOrdersResolver, (s) => new MyOrdersResolver(s.myOrders)],
  [EcardReplyResolver, (s) => new EcardReplyResolver(s.ecardLoop, s.orders)],
  [DiscountResolver, (s) => new DiscountResolver(s.discounts)],
  [AutomaticDiscountResolver, (s) => new AutomaticDiscountResolver(s.automaticDiscounts)],
  [SaleResolver, (s) => new SaleResolver(s.promotions)],
  [GiftCardResolver, (s) => new GiftCardResolver(s.giftCards)],
  [MembershipResolver, (s) => new MembershipResolver(s.memberships, s.giftMemberships)],
  [RefundResolver, (s) => new RefundResolver(s.refunds)],
  [SalesResolver, (s) => new SalesResolver(s.sales)],
  [OrderPaymentResolver, () => new OrderPaymentResolver()],
  [StaffResolver, (s) => new StaffResolver(s.staff)],
  [CustomersResolver, (s) => new CustomersResolver(s.customers, s.memberships)],
  [AuditResolver, (s) => new AuditResolver(s.audit)],
  [EmailProblemsResolver, (s) => new EmailProblemsResolver(s.emailProblems)],
  [AccountSettingsResolver, (s) => new AccountSettingsResolver({ settings: s.accountSettings, addresses: s.addresses })],
  [PasswordResetResolver, (s) => new PasswordResetResolver(s.passwordReset)],
  [ConsentResolver, (s) => new ConsentResolver(s.recipients)],
  [CardDeliveryResolver, (s) => new CardDeliveryResolver(s.orders)],
  [ContactResolver, (s) => new ContactResolver(s.contacts)],
  [GroupCardResolver, (s) => new GroupCardResolver({ cards: s.groupCards, owners: s.groupCardOwners })],
  [GroupCardDetailsResolver, (s) => new GroupCardDetailsResolver({ cards: s.groupCards, owners: s.groupCardOwners })],
  [GroupCardItemResolver, (s) => new GroupCardItemResolver({ cards: s.groupCards, owners: s.groupCardOwners })],
  [ApiKeyResolver, (s) => new ApiKeyResolver(s.apiKeys)],
  [WebhookResolver, (s) => new WebhookResolver(s.webhooks)],
]);

export const resolvers = [...resolverFactories.keys()] as NonEmptyArray<Function>;

/** The access rule a root field declared with @Allow, or undefined when it declared none. */
export function declaredAccess(parent: GraphQLObjectType, fieldName: string): Access | undefined {
  return parent.getFields()[fieldName]?.extensions?.[ACCESS_EXTENSION] as Access | undefined;
}

/** The API key scopes a root field named beside its @Allow rule (none: refused to every key). */
export function declaredScopes(parent: GraphQLObjectType, fieldName: string): readonly ApiScope[] {
  return (parent.getFields()[fieldName]?.extensions?.[SCOPES_EXTENSION] as readonly ApiScope[] | undefined) ?? [];
}

/** A domain error (or the database being away) as the GraphQL error clients read; anything else as it is. */
function asGraphQLError(error: unknown): unknown {
  if (error instanceof AppError) return toGraphQLError(error);
  return isDatabaseUnavailable(error) ? toGraphQLError(serviceUnavailable()) : error;
}

/**
 * Builds the executable schema. The access guard runs before every root query and mutation: it
 * applies the field's @Allow rule, and refuses a field that declares none. Every field's errors are
 * mapped to GraphQL errors with their code.
 *
 * Both are wrapped around the fields' own resolvers once the schema is built, rather than as a
 * type-graphql global middleware: that would run (asynchronously) for every field of every object
 * of an answer, a product's sixty scalars included, which made a product read several times dearer.
 */
export function buildSchema(services: Services | null): GraphQLSchema {
  const instances = new Map<Function, unknown>();
  const schema = buildSchemaSync({
    resolvers,
    validate: false,
    container: {
      get(someClass: Function) {
        if (!instances.has(someClass)) {
          const make = resolverFactories.get(someClass);
          if (!make) throw new Error(`No factory for resolver ${someClass.name}`);
          instances.set(someClass, make(services ?? ({} as Services)));
        }
        return instances.get(someClass);
      },
    },
  });
  describeRoots(schema);
  guardFields(schema, services);
  return schema;
}

/** type-graphql makes the root types itself and takes no description for them: they are given theirs here. */
function describeRoots(schema: GraphQLSchema): void {
  schema.getQueryType()!.description =
    'Everything that can be read. Each field is open to some callers only (anyone, signed-in users, staff or admins) and, with an API key, to the keys holding one of the scopes it names.';
  schema.getMutationType()!.description =
    'Everything that can be changed. Each field is open to some callers only (anyone, signed-in users, staff or admins) and, with an API key, to the keys holding one of the scopes it names.';
}

function guardFields(schema: GraphQLSchema, services: Services | null): void {
  const roots = new Set([schema.getQueryType(), schema.getMutationType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (roots.has(type)) {
        const access = declaredAccess(type, field.name);
        const scopes = declaredScopes(type, field.name);
        field.resolve = async (source, args, context: RequestContext, info) => {
          try {
            if (!access) throw forbidden('This operation is not available.');
            await authorize(context, access, services!.settings, scopes);
            return await (resolve ?? defaultFieldResolver)(source, args, context, info);
          } catch (error) {
            throw asGraphQLError(error);
          }
        };
      } else if (resolve) {
        // Only the fields with a resolver of their own can fail; a plain value stays synchronous.
        field.resolve = (source, args, context, info) => {
          let value: unknown;
          try {
            value = resolve(source, args, context, info);
          } catch (error) {
            throw asGraphQLError(error);
          }
          return value instanceof Promise ? value.catch((error: unknown) => Promise.reject(asGraphQLError(error))) : value;
        };
      }
    }
  }
}
