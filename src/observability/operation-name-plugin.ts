/**
 * The Apollo Server side of the operation-name labels (`operation-names.ts`): once an operation has passed
 * validation and run, says who vouches for its name: a trusted document, or the user the upstream accepted
 * (the session's, or the one a successful login just opened). Anonymous callers vouch for nothing.
 *
 * It runs in `willSendResponse`, before the HTTP layer's `onResponse` records the request, so the first
 * request of a newly admitted name already counts under it.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
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

/** The token in `data.login.token`, if the response carries one. */
function loginToken(data: Record<string, unknown> | null | undefined): string | undefined {
  const login = data?.login;
  if (typeof login !== 'object' || login === null) return undefined;
  const token = (login as Record<string, unknown>).token;
  return typeof token === 'string' ? token : undefined;
}

/** The plugin. */
export function createOperationNamePlugin<TContext extends BaseContext>(
  options: OperationNamePluginOptions<TContext>,
): ApolloServerPlugin<TContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        async willSendResponse({ operation, operationName, source, contextValue, response }) {
          // No resolved operation: it never parsed or validated, and its name stays the caller's word.
          if (operation === undefined || typeof operationName !== 'string') return;
          if (options.isTrustedDocument?.(source) === true) {
            options.admit(operationName, { trusted: true });
            return;
          }
          let user = options.userOf(contextValue);
          if (user === undefined && response.body.kind === 'single') {
            const token = loginToken(response.body.singleResult.data);
            if (token !== undefined) user = await options.userOfToken(token);
          }
          if (user !== undefined) options.admit(operationName, { user });
        },
      });
    },
  };
}
