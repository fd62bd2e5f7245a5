import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';

@InputType({ description: 'A new webhook endpoint: where to POST and which events.' })
export class WebhookEndpointInput {
  @Field(() => String, { description: 'An http(s) URL on the public internet (loopback, private and link-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1).' })
  url!: string;

  @Field(() => [String], { description: 'One or more of order.paid, order.refunded, order.delivered, card.opened, card.replied, product.created, product.updated, product.deleted, customer.created.' })
  events!: string[];
}

@ObjectType({ description: 'A webhook endpoint just created, with its signing secret: shown this once.' })
export class CreatedWebhookEndpoint {
  @Field(() => WebhookEndpoint, { description: 'The endpoint as it is listed from now on.' })
  endpoint!: WebhookEndpoint;

  @Field(() => String, { description: 'The secret (`whsec_…`) that signs every delivery (the ArtSong-Signature header). Shown once.' })
  secret!: string;
}

export const WebhookDeliveryConnection = Connection(WebhookDelivery, 'WebhookDelivery');

@ArgsType()
export class WebhookDeliveriesArgs extends ConnectionArgs {
  @Field(() => Int, { description: 'The endpoint whose deliveries are listed, newest first.' })
  endpointId!: number;
}
