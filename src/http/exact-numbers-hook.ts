/**
 * Refuses variables holding a number a double would change (`1e-400` stored as `0`, 23 digits rounded to
 * 17), as `BAD_USER_INPUT` with `reason: "inexact_number"` and HTTP 400, before Apollo runs anything: once
 * the body is parsed the number is already changed and nobody downstream can tell. The same numbers
 * written as literals in the document are refused by `src/limits/exact-numbers-rule.ts`.
 *
 * The JSON body's numbers are read in the body parser (Fastify's own, wrapped: it still refuses malformed
 * bodies and `__proto__` keys as before), a GET's `variables` parameter in the hook.
 *
 * One exception, in a POST's JSON body only: a whole number a Java `long` holds (9007199254740993) is kept
 * with its digits instead (`parseExactJson`), so that a record read with one can be saved back; GraphQL's
 * coercion then takes it where the type is `JSON`, `JSONObject` or `Long`, and refuses it elsewhere.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../errors/error-codes.ts';
import { httpErrorBody } from '../errors/http-error.ts';
import type { GraphqlCheck } from './graphql-checks.ts';
import { mightLoseNumber, numberLossMessage } from '../upstream/dialect/number-loss.ts';
import { isLongLiteral, parseExactJson } from '../upstream/dialect/exact-json.ts';
import { isJsonObject } from '../upstream/client/answers/response-schemas.ts';
import { firstJsonNumberLoss, type JsonNumberLoss } from './json-number-loss.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The first changed number of a GraphQL request's JSON `variables`, found by the body parser. */
    jsonNumberLoss: JsonNumberLoss | null;
  }
}

/**
 * Whether the parser refused valid JSON: Fastify 5 words a `__proto__` or `constructor.prototype` key as an
 * invalid body (`FST_ERR_CTP_INVALID_JSON_BODY`), which would tell the caller its valid JSON is not JSON.
 * Only refused bodies are parsed again.
 */
function isForbiddenKeyRefusal(error: Error & { code?: string }, text: string): boolean {
  if (error.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The refusal of a forbidden key: a 400 `SyntaxError`, which the error handler answers as one. */
function forbiddenKeyError(): Error {
  return Object.assign(new SyntaxError('Object contains forbidden prototype property'), { statusCode: 400 });
}

/** `firstJsonNumberLoss` of a GET's `variables`, or `null` for text that is no JSON (Apollo answers that). */
function lossIn(text: string): JsonNumberLoss | null {
  if (!mightLoseNumber(text)) return null;
  try {
    // The scanner reads valid JSON only: this parse (iterative in V8, whatever the depth) checks it.
    JSON.parse(text);
  } catch {
    return null;
  }
  return firstJsonNumberLoss(text) ?? null;
}

/**
 * The body with its `variables` read again keeping every digit: the variables hold whole numbers past 2^53
 * a Java `long` holds (and no other changed number), which reach the upstream exactly through `JSON` data
 * and typed `Long` inputs (`exact-json.ts`); any other position refuses them as GraphQL coerces the
 * variables. Fastify's parse has already refused `__proto__` keys in the same text.
 */
function withExactVariables(parsed: unknown, text: string): unknown {
  const exact = parseExactJson(text);
  if (!isJsonObject(parsed) || !isJsonObject(exact)) return parsed;
  return { ...parsed, variables: exact.variables };
}

/** The loss in the request's variables, if any, with its path from `variables`. */
function variablesLoss(request: FastifyRequest): JsonNumberLoss | null {
  if (request.method === 'POST') {
    return request.jsonNumberLoss;
  }
  if (request.method !== 'GET') return null;
  const queryAt = request.url.indexOf('?');
  const text = queryAt < 0 ? null : new URLSearchParams(request.url.slice(queryAt + 1)).get('variables');
  const loss = text === null ? null : lossIn(text);
  return loss === null ? null : { ...loss, path: ['variables', ...loss.path] };
}

/**
 * Wraps the JSON body parser, which notes the first changed number of the GraphQL route's (`path`)
 * variables, and answers the check that refuses it (`graphql-checks.ts`). Register before the routes.
 */
export function registerExactNumbers(app: FastifyInstance, path: string): GraphqlCheck {
  app.decorateRequest('jsonNumberLoss', null);
  // Fastify's defaults for both: a body with `__proto__` or `constructor.prototype` is refused.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // `parseAs: 'string'` hands a string; the type allows a Buffer too.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    void parseJson(request, text, (error, parsed) => {
      if (error !== null) {
        done(isForbiddenKeyRefusal(error, text) ? forbiddenKeyError() : error, undefined);
        return;
      }
      if (request.routeOptions.url === path) {
        // Only the variables: numbers elsewhere (`extensions`) never reach the upstream.
        request.jsonNumberLoss = firstJsonNumberLoss(text, 'variables', isLongLiteral) ?? null;
        if (request.jsonNumberLoss === null && firstJsonNumberLoss(text, 'variables') !== undefined) {
          done(null, withExactVariables(parsed, text));
          return;
        }
      }
      done(error, parsed);
    });
  });

  return (request) => {
    const loss = variablesLoss(request);
    if (loss === null) return undefined;
    const where = loss.path.join('.');
    return {
      status: 400,
      code: ErrorCode.BAD_USER_INPUT,
      body: httpErrorBody(ErrorCode.BAD_USER_INPUT, numberLossMessage(where, loss.literal, loss.loss), {
        reason: 'inexact_number',
      }),
    };
  };
}
