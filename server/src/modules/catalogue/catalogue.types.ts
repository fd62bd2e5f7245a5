import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'A category; on update, a field left out keeps its value.' })
export class CategoryInput {
  @Field(() => String, { nullable: true, description: 'Its name (1–200 characters); required to create one.' })
  name?: string;

  @Field(() => Int, { nullable: true, description: 'Null for the top level.' })
  parentId?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image of the media library; null removes it.' })
  mediaId?: number | null;
}
