/** All resolvers, merged by area. */
import { DateTimeResolver, JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import type { Resolvers } from '../generated/resolvers-types.ts';
import { loginResolvers } from './login.ts';
import { metadataResolvers } from './metadata.ts';
import { objectResolvers } from './objects.ts';

/** The resolver map given to `makeExecutableSchema`. */
export const resolvers: Resolvers[] = [
  { JSON: JSONResolver, JSONObject: JSONObjectResolver, DateTime: DateTimeResolver },
  loginResolvers,
  objectResolvers,
  metadataResolvers,
];
