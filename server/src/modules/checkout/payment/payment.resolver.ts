import { FieldResolver, Resolver, Root } from 'type-graphql';
import { Order } from '../../orders/index.js';
import { clientSecrets } from './client-secrets.js';

@Resolver(() => Order)
export class OrderPaymentResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: "Stripe: the client secret the browser confirms the payment with; only in placeOrder's answer while the order is pending.",
  })
  paymentClientSecret(@Root() order: Order): string | null {
    return clientSecrets.get(order) ?? null;
  }
}
