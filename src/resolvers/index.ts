/** All resolvers, merged by area. */
import { DateTimeResolver } from 'graphql-scalars';
import { ExactJSONObjectResolver, ExactJSONResolver } from './exact-json-scalars.ts';
import type { Resolvers } from '../generated/resolvers-types.ts';
import { loginResolvers } from './login.ts';
import { metadataResolvers } from './metadata.ts';
import { objectResolvers } from './objects.ts';

/** The resolver map given to `makeExecutableSchema`. */
export const resolvers: Resolvers[] = [
  { JSON: ExactJSONResolver, JSONObject: ExactJSONObjectResolver, DateTime: DateTimeResolver },
  loginResolvers,
  objectResolvers,
  metadataResolvers,
];
