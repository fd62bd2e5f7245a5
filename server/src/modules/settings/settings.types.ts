import { Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "The shop's logo: a picture of the media library." })
export class ShopLogo {
  @Field(() => Int, { description: 'The media file id of the logo.' })
  id!: number;

  @Field(() => String, { description: 'Where the bytes are served: load `/api/{filePath}`.' })
  filePath!: string;

  @Field(() => String, { nullable: true, description: 'A small WebP version, served under `/api/`; null when there is none (e.g. a GIF).' })
  thumbnailPath!: string | null;

  @Field(() => String, { description: "The file's display name." })
  friendlyName!: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels; null when unknown.' })
  width!: number | null;

  @Field(() => Int, { nullable: true, description: 'Height in pixels; null when unknown.' })
  height!: number | null;
}

@ObjectType({ description: 'The announcement bar as the owner set it (shown above the header while on and not empty).' })
export class AnnouncementBar {
  @Field(() => Boolean, { description: 'Whether the owner turned it on.' })
  enabled!: boolean;

  @Field(() => String, { description: 'Its text (one line, up to 200 characters; empty when none was written).' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'A path on the shop (/shop) or an https address.' })
  link!: string | null;
}

@ObjectType({ description: 'The announcement shoppers see.' })
export class Announcement {
  @Field(() => String, { description: 'The line shown above the header.' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'Where it leads: a path on the shop or an https address; null: it is plain text.' })
  link!: string | null;
}

@ObjectType({ description: 'Site-wide settings, and whether the caller is an admin.' })
export class Settings {
  @Field(() => Boolean, { description: 'While on, only a signed-in admin sees the shop.' })
  underConstructionMode!: boolean;

  @Field(() => Boolean, { description: 'Whether the caller is a signed-in admin.' })
  isAdmin!: boolean;

  @Field(() => String, { description: "The shop's name: the header, page titles, e-mails and structured data say it." })
  shopName!: string;

  @Field(() => ShopLogo, { nullable: true, description: 'Shown in the header and named in structured data.' })
  logo!: ShopLogo | null;

  @Field(() => String, { nullable: true, description: "Where shoppers write to; the e-mails' footer gives it." })
  supportEmail!: string | null;

  @Field(() => String, { nullable: true, description: "The display name of the shop's e-mail (null: the shop's name, or the configured sender)." })
  senderName!: string | null;

  @Field(() => Int, { description: 'The hour (0-23) a card is sent at on its day unless the shopper picks another.' })
  defaultDeliveryHour!: number;

  @Field(() => String, { description: "The shop's IANA time zone." })
  timeZone!: string;

  @Field(() => AnnouncementBar, { description: 'The announcement bar as set, on or off.' })
  announcementBar!: AnnouncementBar;

  @Field(() => Announcement, { nullable: true, description: 'What shoppers see of the bar: null while it is off or empty.' })
  announcement!: Announcement | null;
}

@InputType({ description: 'The announcement bar: a part left out keeps its value.' })
export class AnnouncementInput {
  @Field(() => Boolean, { nullable: true, description: 'Turns the bar on or off.' })
  enabled?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Up to 200 characters, one line.' })
  text?: string | null;

  @Field(() => String, { nullable: true, description: 'A path on the shop (/shop) or an https address; null or empty for none.' })
  link?: string | null;
}

@InputType({ description: 'A change of the settings: a field left out keeps its value; null clears an optional one.' })
export class UpdateSettingsInput {
  @Field(() => Boolean, { nullable: true, description: 'True closes the shop to everyone but signed-in admins (storefront calls answer UNDER_CONSTRUCTION, 503).' })
  underConstructionMode?: boolean | null;

  @Field(() => String, { nullable: true, description: '1 to 80 characters.' })
  shopName?: string | null;

  @Field(() => Int, { nullable: true, description: 'An image of the media library; null for none.' })
  logoId?: number | null;

  @Field(() => String, { nullable: true, description: 'One e-mail address; null or empty for none.' })
  supportEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'One line, without < or >.' })
  senderName?: string | null;

  @Field(() => Int, { nullable: true, description: '0 to 23.' })
  defaultDeliveryHour?: number | null;

  @Field(() => String, { nullable: true, description: 'An IANA time zone, e.g. Europe/London.' })
  timeZone?: string | null;

  @Field(() => AnnouncementInput, { nullable: true, description: 'The announcement bar; its parts left out keep their value.' })
  announcement?: AnnouncementInput | null;
}
