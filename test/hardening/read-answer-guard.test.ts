/**
 * Hostile getAll/getObject answers against the hand-written read guard (`response-schemas.ts`) and the
 * `totalCount` reader (`dialect/pages/total-count.ts`), decoded as the client decodes them (`JSON.parse`): what zod
 * refused is still refused, as `dialect_mismatch` (`answer_shape`: a shape, never ill health), a `totalCount` in no form the gateway reads is
 * `dialect_mismatch` (never ill health), a `__proto__` key sets no prototype and fills no field, and nothing
 * reaches `Object.prototype`.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import {
  parseAnswer,
  toAnswerPatterns,
  type AnswerContext,
} from '../../src/upstream/client/answers/parse-answer.ts';
import { getAllAnswer, getObjectAnswer } from '../../src/upstream/client/answers/response-schemas.ts';
import { readTotalCount } from '../../src/upstream/dialect/pages/total-count.ts';

const CONFIG = loadConfig({});
const CONTEXT: AnswerContext = {
  operation: 'getAll',
  patterns: toAnswerPatterns({
    auth: CONFIG.authErrorPattern,
    forbidden: CONFIG.forbiddenErrorPattern,
    callerInput: CONFIG.callerErrorPattern,
  }),
  secrets: [],
};

/** What the client makes of `text`: getAll's total is read as the client reads it. */
const kindOf = (text: string, schema: typeof getAllAnswer | typeof getObjectAnswer) => {
  try {
    const answer = parseAnswer(JSON.parse(text) as unknown, schema, CONTEXT);
    if (schema === getAllAnswer) readTotalCount('getAll', answer, answer.data.length);
    return 'accepted';
  } catch (error) {
    return error instanceof UpstreamError ? error.kind : 'other';
  }
};

describe('the read guard on hostile answers', () => {
  it.each([
    ['the whole answer under __proto__', '{"__proto__":{"status":"success","data":[],"totalCount":0}}'],
    ['data under __proto__', '{"status":"success","__proto__":{"data":[]},"totalCount":0}'],
    [
      'a record whose _id is under __proto__',
      '{"status":"success","data":[{"__proto__":{"_id":"a"}}],"totalCount":1}',
    ],
    ['an array-like data', '{"status":"success","data":{"length":1,"0":{"_id":"a"}},"totalCount":1}'],
    ['an answer that is an array', '[{"status":"success","data":[],"totalCount":0}]'],
    ['a null record', '{"status":"success","data":[null],"totalCount":1}'],
    ['an array record', '{"status":"success","data":[["a"]],"totalCount":1}'],
    ['an object _id', '{"status":"success","data":[{"_id":{"toString":"a"}}],"totalCount":1}'],
    ['a status of another case', '{"status":"Success","data":[],"totalCount":0}'],
    [
      'a totalCount under __proto__ beside a record',
      '{"status":"success","data":[{"_id":"a"}],"__proto__":{"totalCount":1}}',
    ],
    ['an infinite totalCount', '{"status":"success","data":[],"totalCount":1e400}'],
    ['an unsafe totalCount', '{"status":"success","data":[],"totalCount":9007199254740993}'],
    ['a negative totalCount', '{"status":"success","data":[],"totalCount":-1}'],
    ['a null totalCount', '{"status":"success","data":[],"totalCount":null}'],
    ['an object totalCount', '{"status":"success","data":[],"totalCount":{"valueOf":1}}'],
    ['a totalCount of text that is no count', '{"status":"success","data":[],"totalCount":"1e3"}'],
  ])('should refuse %s as a dialect mismatch, never ill health', (_name, text) => {
    expect(kindOf(text, getAllAnswer)).toBe('dialect_mismatch');
    for (const key of ['status', '_id', 'totalCount']) expect(Object.prototype).not.toHaveProperty(key);
  });

  it('should read a totalCount hidden under __proto__ beside no records as absent: 0, from no prototype', () => {
    const answer = parseAnswer(
      JSON.parse('{"status":"success","data":[],"__proto__":{"totalCount":5}}') as unknown,
      getAllAnswer,
      CONTEXT,
    );
    expect(readTotalCount('getAll', answer, 0)).toBe(0);
  });

  it('should refuse a getObject answer whose record hides its _id under __proto__', () => {
    expect(kindOf('{"status":"success","data":[{"__proto__":{"_id":"a"}}]}', getObjectAnswer)).toBe(
      'dialect_mismatch',
    );
  });

  it('should hand on records whose own __proto__ key leaves their prototype and Object.prototype alone', () => {
    const text = '{"status":"success","totalCount":1,"data":[{"_id":"a","__proto__":{"polluted":true}}]}';
    const answer = parseAnswer(JSON.parse(text) as unknown, getAllAnswer, CONTEXT);
    const [record] = answer.data;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect((record as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
