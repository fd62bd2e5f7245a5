import { AuthSession } from './modules/auth/auth-session.entity.js';
import { RememberedSession, RetiredSessionCookie } from './modules/auth/remembered-session.entity.js';
import { User } from './modules/auth/user.entity.js';
import { BlogPost } from './modules/blog/blog-post.entity.js';
import { Category } from './modules/catalogue/category.entity.js';
import { EGreetingCard } from './modules/catalogue/e-greeting-card.entity.js';
import { ProductType } from './modules/catalogue/product-type.entity.js';
import { Product, ProductImage } from './modules/catalogue/product.entity.js';
import { MediaFile } from './modules/media/media-file.entity.js';
import { MediaFolder } from './modules/media/media-folder.entity.js';
import { SoldMedia } from './modules/media/sold-media.entity.js';
import { EcardReply } from './modules/ecard/ecard-reply.entity.js';
import { OrderNote } from './modules/orders/order-note.entity.js';
import { MailJob } from './modules/mail/mail-job.entity.js';
import { OrderItem } from './modules/orders/order-item.entity.js';
import { Order } from './modules/orders/order.entity.js';
import { DiscountCode } from './modules/discount/discount-code.entity.js';
import { GiftCard, GiftCardEntry } from './modules/gift-cards/gift-card.entity.js';
import { Membership, MembershipCharge, MembershipPlan } from './modules/memberships/membership.entity.js';
import { AutomaticDiscount } from './modules/discount/automatic-discount.entity.js';
import { Setting } from './modules/settings/setting.entity.js';
import { StaffInvitation } from './modules/staff/staff-invitation.entity.js';
import { AccountToken } from './modules/auth/account-token.entity.js';
import { UnsubscribedAddress } from './modules/consent/unsubscribed-address.entity.js';
import { Contact, ContactOccasion } from './modules/contacts/contact.entity.js';
import { GroupCard, GroupCardInvitation, GroupCardSignature } from './modules/group-card/group-card.entity.js';

/** Every entity of the product, in one list for the ORM. */
export const entities = [User, AuthSession, RememberedSession, RetiredSessionCookie, Setting, MediaFolder, MediaFile, BlogPost, ProductType, Category, Product, ProductImage, EGreetingCard, Order, OrderItem, OrderNote, MailJob, SoldMedia, EcardReply, DiscountCode, AutomaticDiscount, StaffInvitation, AccountToken, UnsubscribedAddress, Contact, ContactOccasion, GroupCard, GroupCardInvitation, GroupCardSignature, GiftCard, GiftCardEntry, MembershipPlan, Membership, MembershipCharge];
