import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, Int, ObjectType } from 'type-graphql';

/** The built-in types (ids 1–3, they cannot be deleted) and the e-greeting card's type: the shared rules. */
export { BUILT_IN_PRODUCT_TYPES, E_GREETING_CARD_TYPE_ID } from '../../rules/index.js';

@ObjectType({ description: 'A kind of product: 1 e-greeting card, 2 music album, 3 image collection, or one an admin added.' })
@Entity({ tableName: 'product_type' })
@Unique({ name: 'product_type_name_lower_unique', expression: 'create unique index "product_type_name_lower_unique" on "product_type" (lower("name"))' })
export class ProductType {
  @Field(() => Int, { description: "The type's id: 1 to 3 are built in." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'Its name, unique ignoring case (1–100 characters), e.g. "E-Greeting Card".' })
  @Property({ type: 'string', length: 100 })
  name!: string;
}
