import { Field, InputType, ObjectType } from 'type-graphql';
import { ApiKey } from './api-key.entity.js';

@InputType({ description: 'A new API key: its name and what it may do.' })
export class ApiKeyInput {
  @Field(() => String, { description: 'A name that says who uses it (1–100 characters), e.g. "Fulfilment service".' })
  name!: string;

  @Field(() => [String], { description: 'One or more of catalogue:read, catalogue:write, orders:read, orders:write, customers:read.' })
  scopes!: string[];
}

@ObjectType({ description: 'An API key just created, with the key itself: shown this once, never kept.' })
export class CreatedApiKey {
  @Field(() => ApiKey, { description: 'The key as it is listed from now on.' })
  apiKey!: ApiKey;

  @Field(() => String, { description: 'The key (`ask_` and 32 characters), to send as `Authorization: Bearer ask_…`. Shown once.' })
  key!: string;
}
