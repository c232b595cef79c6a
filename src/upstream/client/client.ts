/**
 * The upstream client: the seven operations of docs/upstream-contract.md over {@link createHttpTransport}, with the
 * decisions of docs/design.md where that document is silent. Every answer is decoded without `eval` and
 * validated before it is returned; every failure is an `UpstreamError` that holds no secret.
 */
import type { z } from 'zod';
import { createAnswerBudget } from './answer-budget.ts';
import { createExchangeRunner } from './exchange.ts';
import { createHttpTransport } from './http-transport.ts';
import { parseBaseUrl } from './join-url.ts';
import { toAnswerPatterns } from './answers/parse-answer.ts';
import { createRequestChecks } from './request-checks.ts';
import {
  formLoginAnswer,
  getAllAnswer,
  getObjectAnswer,
  jsonLoginAnswer,
  metadataAnswer,
  saveAnswer,
  updateAnswer,
} from './answers/response-schemas.ts';
import type { UpstreamClient, UpstreamClientOptions, UpstreamCredentials } from './types.ts';
import type { Criterion, FilterCommand, WireOperation } from './wire.ts';
import { UPSTREAM_MAX_RESPONSE_BYTES } from '../../config/defaults.ts';
import { callerOf } from '../caller.ts';
import { requireSessionCookie, sessionCookiesOf } from '../dialect/session-cookie.ts';
import { readSavedId } from '../dialect/writes/saved-id.ts';
import { toUpdateParams } from '../dialect/writes/update-params.ts';
import { checkUpdatedFields, updateFieldsMismatch } from '../dialect/writes/updated-fields.ts';
import { toPageStart } from '../dialect/pages/page-start.ts';
import { readTotalCount } from '../dialect/pages/total-count.ts';
import { framePattern, type MatchesDialect } from '../dialect/matches-pattern.ts';
import { metadataPayload } from '../dialect/metadata-payload.ts';
import { asciiJson, asciiJsonText, formBody, JSON_CONTENT_TYPE } from '../dialect/charset/request-bodies.ts';
import type { AnswerCharset } from '../dialect/charset/answer-charset.ts';
import { answerTextForm, checkAnswerable, type AnswerTextForm } from '../dialect/charset/answerable-text.ts';
import { createParseSlots } from '../dialect/parse-slots.ts';

/** Creates the client. Base addresses are validated now: a bad one throws a `TypeError` naming it. */
export function createUpstreamClient(
  options: UpstreamClientOptions,
): UpstreamClient & { answerBytesHeld(): number; mayAnswerLossyText(): boolean } {
  const api = parseBaseUrl('apiUrl', options.apiUrl);
  const base = parseBaseUrl('baseUrl', options.baseUrl);
  const studio = parseBaseUrl('studioUrl', options.studioUrl);
  const server = parseBaseUrl('serverUrl', options.serverUrl);
  const { pageStartMode, callTimeoutMillis, saveIdAt, updateFields } = options;
  // Where a session's calls go: a form login's session cookie must be set for (a prefix of) both.
  const sessionPaths = [`${studio.prefix}/studio/jsonp/`, `${server.prefix}/studio/jsonp/`];
  const dialect: MatchesDialect = { matchesMode: options.matchesMode, matchesCase: options.matchesCase };
  const transport = createHttpTransport({
    connectTimeoutMillis: options.connectTimeoutMillis,
    headersTimeoutMillis: options.headersTimeoutMillis,
    bodyTimeoutMillis: options.bodyTimeoutMillis,
    callTimeoutMillis,
    maxResponseBytes: options.maxResponseBytes ?? UPSTREAM_MAX_RESPONSE_BYTES,
    connectionsPerOrigin: options.connectionsPerOrigin,
    dispatcher: options.dispatcher,
  });

  const checks = createRequestChecks(options.requestLimits);
  const perUserBytes = options.maxInflightAnswerBytesPerUser;
  const answerBudget = createAnswerBudget({
    totalBytes: options.maxInflightAnswerBytes,
    perUserBytes,
    // Logins answer a token: all of them together get the smallest share.
    anonymousBytes: Math.max(1, Math.floor(perUserBytes / ANONYMOUS_SHARE_DIVISOR)),
  });
  const run = createExchangeRunner({
    transport,
    checks,
    answerBudget,
    parseSlots: createParseSlots(),
    patterns: toAnswerPatterns({
      auth: options.authErrorPattern,
      forbidden: options.forbiddenErrorPattern,
      callerInput: options.callerErrorPattern,
    }),
    callTimeoutMillis,
    answerCharset: options.answerCharset,
    onCall: options.onCall,
    onAttempt: options.onAttempt,
  });

  // The charset the upstream last answered a read or a write in, and how it writes text beyond ASCII there
  // (`answerable-text.ts`): as its own bytes (text the charset lacks comes back as `?`) or as `\u` escapes.
  let answeredIn: AnswerCharset = 'utf-8';
  let textForm: AnswerTextForm = 'unknown';
  const heard = (charset: AnswerCharset, text: string): void => {
    answeredIn = charset;
    if (charset !== 'utf-8') textForm = answerTextForm(text, textForm);
  };

  function read<T>(
    operation: WireOperation,
    credentials: UpstreamCredentials,
    schema: z.ZodType<T>,
    path: string,
    query: Record<string, string | undefined>,
  ): Promise<T> {
    return run({
      operation,
      base: studio,
      method: 'GET',
      answer: 'jsonp',
      schema,
      secrets: secretsOf(credentials),
      objectName: query.objectName,
      holder: callerOf(credentials),
      heard,
      build: (callback) => ({
        path,
        query: { ...query, ...credentialQuery(credentials), callback },
        cookie: credentials.sessionCookie,
      }),
    });
  }

  return {
    /** Answer bytes held now, all callers together (the saturation metrics). */
    answerBytesHeld: () => answerBudget.heldBytes(),
    mayAnswerLossyText: () => answeredIn !== 'utf-8' && textForm !== 'escapes',
    async loginJson(username, password) {
      const answer = await run({
        operation: 'loginJson',
        base: api,
        method: 'POST',
        answer: 'json',
        schema: jsonLoginAnswer,
        secrets: [password],
        build: () => ({
          path: '/v1/user/login',
          contentType: JSON_CONTENT_TYPE,
          body: asciiJson({ username, password }),
        }),
      });
      return { token: answer.token };
    },

    async loginForm(username, password) {
      let setCookie: string | string[] | undefined;
      const form = formBody('loginForm', { username, password }, options.requestCharset);
      const answer = await run({
        operation: 'loginForm',
        base,
        method: 'POST',
        answer: 'json',
        schema: formLoginAnswer,
        secrets: [password],
        onSetCookie: (values) => {
          setCookie = values;
        },
        build: () => ({ path: '/app/login.jsp', contentType: form.contentType, body: form.body }),
      });
      // No token: the session is the servlet's, in the cookie the login set (docs/upstream-contract.md,
      // `login_session`), or there is none the gateway can carry.
      const sessionCookie =
        answer.token === undefined || answer.token === ''
          ? requireSessionCookie(
              sessionCookiesOf(setCookie, `${base.prefix}/app/login.jsp`, sessionPaths),
              sessionPaths,
            )
          : undefined;
      return {
        userId: answer.userId,
        username: answer.username,
        token: answer.token,
        message: answer.message,
        sessionCookie,
      };
    },

    async getMetadata(credentials, objectId, category) {
      checks.id('metadata', objectId, 'objectId', true);
      const path = `/studio/jsonp/metadata/get/${encodeURIComponent(objectId)}/`;
      const answer = await read('metadata', credentials, metadataAnswer, path, { category });
      return metadataPayload(answer, options.metadataKey);
    },

    async getObject(credentials, objectName, criteria) {
      checks.objectName('getObject', objectName);
      const query = { objectName, filterCommand: filterCommand(criteria, dialect) };
      const answer = await read('getObject', credentials, getObjectAnswer, '/studio/jsonp/getObject/', query);
      return answer.data[0] ?? null;
    },

    async getAll(credentials, objectName, criteria, pageSize, pageIndex) {
      checks.objectName('getAll', objectName);
      const query = {
        objectName,
        filterCommand: filterCommand(criteria, dialect),
        pageSize: String(pageSize),
        pageStart: String(toPageStart(pageStartMode, pageIndex, pageSize)),
      };
      const answer = await read('getAll', credentials, getAllAnswer, '/studio/jsonp/getAll', query);
      return { records: answer.data, totalCount: readTotalCount('getAll', answer, answer.data.length) };
    },

    async save(credentials, objectName, data) {
      const { applicationCode, organizationCode } = credentials;
      // A cookie session sends no token (the servlet's session stands for it): left out of the body.
      const apiToken = credentials.apiToken === '' ? undefined : credentials.apiToken;
      checks.objectName('save', objectName);
      checks.saveId('save', data);
      checkAnswerable('save', data, checks.data('save', data, 'data'), answeredIn, textForm);
      const answer = await run({
        operation: 'save',
        base: server,
        method: 'POST',
        write: true,
        answer: 'jsonp',
        schema: saveAnswer,
        secrets: secretsOf(credentials),
        objectName,
        holder: callerOf(credentials),
        heard,
        // docs/design.md: `callback` travels in the query string and, with the same value, in the body.
        build: (callback) => ({
          path: '/studio/jsonp/save',
          query: { callback },
          contentType: JSON_CONTENT_TYPE,
          body: asciiJson({ objectName, data, apiToken, applicationCode, organizationCode, callback }),
          cookie: credentials.sessionCookie,
        }),
      });
      const sentId = typeof data._id === 'string' ? data._id : undefined;
      return { savedObjectId: readSavedId(answer, saveIdAt, sentId), message: answer.message };
    },

    async update(credentials, objectName, id, data, beforeSend) {
      checks.objectName('update', objectName);
      checks.id('update', id, 'id', true);
      const json = checks.data('update', data, 'data');
      checkAnswerable('update', data, json, answeredIn, textForm);
      // Refused before sending: what one query parameter per field cannot carry (update-params.ts).
      const fields = updateFields === 'params' ? toUpdateParams(data) : { data: asciiJsonText(json) };
      const answer = await run({
        operation: 'update',
        base: server,
        method: 'GET',
        write: true,
        answer: 'jsonp',
        schema: updateAnswer,
        secrets: secretsOf(credentials),
        objectName,
        holder: callerOf(credentials),
        heard,
        beforeSend,
        build: (callback) => ({
          path: `/studio/jsonp/update/${encodeURIComponent(id)}`,
          query: { objectName, ...fields, ...credentialQuery(credentials), callback },
          cookie: credentials.sessionCookie,
        }),
      });
      const verdict = checkUpdatedFields(data, answer.updatedFields, updateFields);
      if (verdict.kind === 'mismatch') throw updateFieldsMismatch(id, verdict.detail, verdict.fields);
      return {
        savedObjectId: answer.savedObjectId,
        message: answer.message,
        updatedFields: answer.updatedFields,
      };
    },

    async close() {
      await transport.close();
    },
  };
}

/** The anonymous share of the answer budget (all logins together) is the user's share divided by this. */
const ANONYMOUS_SHARE_DIVISOR = 8;

/**
 * What an upstream error message must never echo: the token, and a cookie session's header and each of its
 * values (an upstream may quote the session id alone).
 */
function secretsOf(credentials: UpstreamCredentials): string[] {
  const { apiToken, sessionCookie } = credentials;
  if (sessionCookie === undefined) return [apiToken];
  const values = sessionCookie.split('; ').map((pair) => pair.slice(pair.indexOf('=') + 1));
  return [apiToken, sessionCookie, ...values];
}

/**
 * The credentials every read and the update carry in the query string. A cookie session has no token to
 * send: `apiToken` is left out (a servlet keeping its session in a cookie reads the user from it).
 */
function credentialQuery(credentials: UpstreamCredentials): Record<string, string | undefined> {
  return {
    username: credentials.username,
    apiToken: credentials.apiToken === '' ? undefined : credentials.apiToken,
    applicationCode: credentials.applicationCode,
    organizationCode: credentials.organizationCode,
  };
}

/**
 * The `filterCommand` parameter of getObject and getAll; each `matches` value framed for the upstream's
 * dialect (anchored for `UPSTREAM_MATCHES=find`, `(?-i)` for `UPSTREAM_MATCHES_CASE=insensitive`), so that
 * every operator keeps its meaning.
 */
function filterCommand(criteria: readonly Criterion[], dialect: MatchesDialect): string {
  const command: FilterCommand = {
    criteria: criteria.map(({ fieldName, operator, value }) => ({
      fieldName,
      operator,
      value: operator === 'matches' ? framePattern(value, dialect) : value,
    })),
  };
  return asciiJsonText(JSON.stringify(command));
}
