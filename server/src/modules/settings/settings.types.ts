import { Field, InputType, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Site-wide settings, and whether the caller is an admin.' })
export class Settings {
  @Field(() => Boolean, { description: 'While on, only a signed-in admin sees the shop.' })
  underConstructionMode!: boolean;

  @Field(() => Boolean, { description: 'Whether the caller is a signed-in admin.' })
  isAdmin!: boolean;
}

@InputType()
export class UpdateSettingsInput {
  @Field(() => Boolean)
  underConstructionMode!: boolean;
}
