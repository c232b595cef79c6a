/**
 * The Apollo Server side of the operation-name labels (`operation-names.ts`): once an operation has passed
 * validation and run, says who vouches for its name: a trusted document, or the user the upstream accepted
 * (the session's, or the one a successful login just opened, through `login` or the field
 * `FEDERATION_NAME_PREFIX` renamed it to). Anonymous callers vouch for nothing.
 *
 * It runs in `willSendResponse`, before the HTTP layer's `onResponse` records the request, so the first
 * request of a newly admitted name already counts under it.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { LOGIN_FIELD_EXTENSION } from '../limits/single-login-rule.ts';
import type { OperationNameSource } from './operation-names.ts';

/** Options of {@link createOperationNamePlugin}. */
export interface OperationNamePluginOptions<TContext> {
  admit(name: string, source: OperationNameSource): void;
  /** Whether `source` is the text of a registered trusted document (none when no manifest is loaded). */
  isTrustedDocument?: ((source: string) => boolean) | undefined;
  /** The user of the request's session (a stable key, no secret), or `undefined` without one. */
  userOf(context: TContext): string | undefined;
  /** The user of a session token this request's `login` answered, or `undefined` if it is not one. */
  userOfToken(token: string): Promise<string | undefined>;
}

/** The login field's name: `login`, or what `FEDERATION_NAME_PREFIX` renamed it to (`objectsLogin`). */
function loginFieldOf(schema: GraphQLSchema): string {
  const renamed: unknown = schema.extensions[LOGIN_FIELD_EXTENSION];
  return typeof renamed === 'string' ? renamed : 'login';
}

/** The token in `data.<login field>.token`, if the response carries one. */
function loginToken(
  data: Record<string, unknown> | null | undefined,
  loginField: string,
): string | undefined {
  const login = data?.[loginField];
  if (typeof login !== 'object' || login === null) return undefined;
  const token = (login as Record<string, unknown>).token;
  return typeof token === 'string' ? token : undefined;
}

/** The plugin. */
export function createOperationNamePlugin<TContext extends BaseContext>(
  options: OperationNamePluginOptions<TContext>,
): ApolloServerPlugin<TContext> {
  // The listener keeps no state of its own: one object, and one settled promise of it, serve every request.
  const done = Promise.resolve();
  /** Admits the name of a request with no session whose `login` answered a token, once its user is known. */
  async function admitLogin(name: string, token: string): Promise<void> {
    const user = await options.userOfToken(token);
    if (user !== undefined) options.admit(name, { user });
  }
  // Not `async`: the usual request settles with one shared promise, only a login waits for its session.
  const listener: GraphQLRequestListener<TContext> = {
    willSendResponse({ operation, operationName, source, contextValue, response, schema }) {
      // No resolved operation: it never parsed or validated, and its name stays the caller's word.
      if (operation === undefined || typeof operationName !== 'string') return done;
      if (options.isTrustedDocument?.(source) === true) {
        options.admit(operationName, { trusted: true });
        return done;
      }
      const user = options.userOf(contextValue);
      if (user !== undefined) {
        options.admit(operationName, { user });
        return done;
      }
      if (response.body.kind !== 'single') return done;
      const token = loginToken(response.body.singleResult.data, loginFieldOf(schema));
      return token === undefined ? done : admitLogin(operationName, token);
    },
  };
  const started = Promise.resolve(listener);
  return { requestDidStart: () => started };
}
