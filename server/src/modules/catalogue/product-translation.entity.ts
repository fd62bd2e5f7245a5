import { OptionalProps, PrimaryKeyProp } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ObjectType } from 'type-graphql';
import { Product } from './product.entity.js';

/**
 * A product's content in one of the shop's other languages (de, fr, es): its name, description and,
 * for a card, its default message. An empty field is not translated: the English is shown instead.
 */
@ObjectType('ProductTranslation', { description: "A product's name, description and card default message in one of the shop's other languages; an empty field falls back to the English." })
@Entity({ tableName: 'product_translation' })
@Check({ name: 'product_translation_locale_check', expression: "locale in ('de', 'fr', 'es')" })
@Index({ name: 'product_translation_search_index', expression: 'create index "product_translation_search_index" on "product_translation" using gin ("search_text" gin_trgm_ops)' })
export class ProductTranslation {
  [PrimaryKeyProp]?: ['product', 'locale'];
  [OptionalProps]?: 'name' | 'description' | 'defaultMessage' | 'searchText';

  /** A product's translations go with it. */
  @ManyToOne(() => Product, { primary: true, deleteRule: 'cascade' })
  product!: Product;

  @Field(() => String, { description: 'The language: de, fr or es.' })
  @PrimaryKey({ type: 'string', length: 2 })
  locale!: string;

  @Field(() => String, { description: 'The name in this language; empty: the English name is shown.' })
  @Property({ type: 'string', length: 200, default: '' })
  name: string = '';

  @Field(() => String, { description: 'The description in this language; empty: the English one is shown.' })
  @Property({ type: 'text', default: '' })
  description: string = '';

  @Field(() => String, { description: "A card's default message in this language; empty: the English one is shown." })
  @Property({ type: 'text', default: '' })
  defaultMessage: string = '';

  /** Name and description in lower case, for the shop's search in this language; kept by the database. */
  @Property({ type: 'text', generated: '(lower("name" || \' \' || "description")) stored', lazy: true })
  searchText?: string;
}
