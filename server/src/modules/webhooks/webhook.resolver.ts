import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';
import type { WebhookService } from './webhook.service.js';
import { CreatedWebhookEndpoint, WebhookDeliveriesArgs, WebhookDeliveryConnection, WebhookEndpointInput } from './webhook.types.js';

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  constructor(private readonly service: WebhookService) {}

  @Allow('admin')
  @Query(() => [WebhookEndpoint], { description: 'Every webhook endpoint, newest first, turned-off ones included (admins).' })
  webhookEndpoints(@Ctx() ctx: RequestContext): Promise<WebhookEndpoint[]> {
    return this.service.list(ctx);
  }

  @Allow('admin')
  @Query(() => WebhookDeliveryConnection, { description: "An endpoint's deliveries, newest first: status, attempts, last answer (admins)." })
  webhookDeliveries(@Ctx() ctx: RequestContext, @Args(() => WebhookDeliveriesArgs) args: WebhookDeliveriesArgs): Promise<ConnectionResult<WebhookDelivery>> {
    return this.service.deliveries(ctx, args.endpointId, args);
  }

  @Allow('admin')
  @Mutation(() => CreatedWebhookEndpoint, { description: 'Creates a webhook endpoint; the answer is the only time its signing secret is shown. Audited.' })
  createWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('input', () => WebhookEndpointInput, { description: 'Its URL and events.' }) input: WebhookEndpointInput): Promise<CreatedWebhookEndpoint> {
    return this.service.create(ctx, input);
  }

  @Allow('admin')
  @Mutation(() => Boolean, { description: 'Deletes a webhook endpoint with its deliveries. Audited.' })
  async deleteWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The endpoint's id." }) id: number): Promise<boolean> {
    await this.service.delete(ctx, id);
    return true;
  }

  @Allow('admin')
  @Mutation(() => WebhookEndpoint, { description: 'Turns a webhook endpoint that was turned off back on: it receives new events again. Audited.' })
  enableWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The endpoint's id." }) id: number): Promise<WebhookEndpoint> {
    return this.service.enable(ctx, id);
  }

  @Allow('admin')
  @Mutation(() => WebhookDelivery, { description: 'Sends a delivery again now, with the same event id. Audited.' })
  redeliverWebhook(@Ctx() ctx: RequestContext, @Arg('deliveryId', () => Int, { description: "The delivery's id." }) deliveryId: number): Promise<WebhookDelivery> {
    return this.service.redeliver(ctx, deliveryId);
  }
}
