import type { Services } from '../../../server/src/services.js';
import type { RouteDef } from '../route.js';
import { authRoutes } from './auth.routes.js';
import { blogPageRoutes } from './blog-pages.routes.js';
import { blogRoutes } from './blog.routes.js';
import { catalogueRoutes } from './catalogue.routes.js';
import { discountRoutes } from './discount.routes.js';
import { giftCardRoutes } from './gift-card.routes.js';
import { membershipRoutes } from './membership.routes.js';
import { promotionRoutes } from './promotions.routes.js';
import { shopOperationsRoutes } from './shop-operations.routes.js';
import { ecardPageRoutes } from './ecard-pages.routes.js';
import { ecardLoopRoutes } from './ecard-loop.routes.js';
import { cardPreviewPageRoutes, cardPreviewRoutes } from './card-preview.routes.js';
import { mediaRoutes } from './media.routes.js';
import { orderRoutes } from './order.routes.js';
import { productRoutes } from './product.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { sitemapRoutes } from './sitemap.routes.js';
import { storefrontPageRoutes } from './storefront-pages.routes.js';
import { developersPageRoutes } from './developers-page.routes.js';
import type { PageDeps } from '../page-drawer.js';
import { uploadRoutes } from './uploads.routes.js';
import { auditRoutes } from './audit.routes.js';
import { customerRoutes } from './customers.routes.js';
import { staffRoutes } from './staff.routes.js';
import { emailProblemRoutes } from './email-problems.routes.js';
import { accountSettingsRoutes } from './account-settings.routes.js';
import { consentRoutes, oneClickUnsubscribeRoutes } from './consent.routes.js';
import { contactRoutes } from './contacts.routes.js';
import { groupCardRoutes } from './group-card.routes.js';
import { signPageRoutes } from './sign-pages.routes.js';
import { salesRoutes } from './sales.routes.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Every REST route under /api. */
export function restRoutes(services: Services): RouteDef[] {
  // The storefront's hot reads first: each route passed costs a path match.
  return [...productRoutes(services), ...catalogueRoutes(services), ...settingsRoutes(services), ...authRoutes(services), ...mediaRoutes(services), ...blogRoutes(services), ...orderRoutes(services), ...ecardLoopRoutes(services), ...cardPreviewRoutes(services), ...discountRoutes(services), ...giftCardRoutes(services), ...membershipRoutes(services), ...promotionRoutes(services), ...shopOperationsRoutes(services), ...staffRoutes(services), ...customerRoutes(services), ...auditRoutes(services), ...emailProblemRoutes(services), ...accountSettingsRoutes(services), ...consentRoutes(services), ...contactRoutes(services), ...groupCardRoutes(services), ...salesRoutes(services), ...apiKeyRoutes(services), ...webhookRoutes(services)];
}

/** The stored media files, served under /api/uploads (mounted ahead of the API router). */
export function fileRoutes(services: Services): RouteDef[] {
  return uploadRoutes(services);
}

/** Pages the server renders or describes itself (storefront pages, the RSS feed, blog posts, purchased e-cards, robots and sitemap). */
export function pageRoutes(services: Services, pages: PageDeps): RouteDef[] {
  return [...storefrontPageRoutes(services, pages), ...developersPageRoutes(services, pages), ...blogPageRoutes(services, pages), ...cardPreviewPageRoutes(services), ...ecardPageRoutes(services), ...signPageRoutes(services), ...sitemapRoutes(), ...oneClickUnsubscribeRoutes(services)];
}
