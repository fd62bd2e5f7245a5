import path from 'node:path';
import type { AppConfig } from './config.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BlogService } from './modules/blog/blog.service.js';
import { CategoryService } from './modules/catalogue/category.service.js';
import { ProductTypeService } from './modules/catalogue/product-type.service.js';
import { ProductService } from './modules/catalogue/product.service.js';
import { TokenService } from './modules/auth/token.service.js';
import { MediaService } from './modules/media/media.service.js';
import { LocalDiskStorage } from './modules/media/media-storage.js';
import { DeliveryService } from './modules/order/delivery.service.js';
import { EcardService } from './modules/order/ecard.service.js';
import { createMailer } from './modules/order/mailer.js';
import { OrderService } from './modules/order/order.service.js';
import type { PaymentProvider } from './modules/order/payment/payment-provider.js';
import { TestPaymentProvider } from './modules/order/payment/test-payment-provider.js';
import { SettingsService } from './modules/settings/settings.service.js';
import type { Logger } from 'pino';

/** The services of the product: one instance each per process, shared by GraphQL and REST. */
export interface Services {
  auth: AuthService;
  settings: SettingsService;
  media: MediaService;
  blog: BlogService;
  categories: CategoryService;
  productTypes: ProductTypeService;
  products: ProductService;
  orders: OrderService;
  deliveries: DeliveryService;
  ecards: EcardService;
}

/** What a running shop is given rather than configured: its clock and payment providers (tests swap them). */
export interface ServiceDeps {
  log: Logger;
  clock?: () => Date;
  paymentProviders?: PaymentProvider[];
}

export function createServices(config: AppConfig, jwtSecret: string, deps: ServiceDeps): Services {
  const clock = deps.clock ?? (() => new Date());
  const tokens = new TokenService(jwtSecret, config.tokenTtlSeconds);
  const blog = new BlogService();
  const categories = new CategoryService();
  const products = new ProductService();
  const productTypes = new ProductTypeService((ctx, typeId) => products.countOfType(ctx, typeId));
  const deliveries = new DeliveryService({
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom, domain: new URL(config.publicUrl).hostname }),
    baseUrl: config.publicUrl,
    clock,
    log: deps.log,
  });
  const services = {
    auth: new AuthService(tokens, config.loginLimits),
    settings: new SettingsService(),
    media: new MediaService({
      storage: new LocalDiskStorage(path.join(config.dataDir, 'uploads')),
      // Beside the uploads, so that storing a checked upload is a rename on the same disk.
      stagingDir: path.join(config.dataDir, 'tmp', 'uploads'),
      maxFileBytes: Math.floor(config.maxUploadMb * 1024 * 1024),
    }),
    blog,
    categories,
    productTypes,
    products,
    orders: new OrderService({ providers: deps.paymentProviders ?? [new TestPaymentProvider()], deliveries, clock }),
    deliveries,
    ecards: new EcardService(clock),
  };
  services.media.registerUsageProvider(blog.mediaUsages);
  services.media.registerUsageProvider(categories.mediaUsages);
  services.media.registerUsageProvider(products.mediaUsages);
  return services;
}
