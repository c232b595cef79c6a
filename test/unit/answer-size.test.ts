/**
 * The answer's size, bounded before and while it is built: what a JSON value weighs without serializing
 * it, what each type's records are learnt to weigh, the cost and the estimate with the page sizes the request
 * really carries (variables, defaults, aliases, fragments), the budget of answers in flight and the meter
 * that stops an answer past its bound.
 */
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import {
  createAnswerBytesBudget,
  type AnswerBytesBudget,
  FREE_ANSWER_BYTES,
} from '../../src/limits/answer-size/answer-bytes-budget.ts';
import { RequestAnswerMeter } from '../../src/limits/answer-size/answer-meter.ts';
import { answerShape } from '../../src/limits/answer-size/answer-size-estimate.ts';
import { estimatedBytes } from '../../src/limits/answer-size/answer-size-limit.ts';
import { operationCost } from '../../src/limits/cost-limit-rule.ts';
import { upstreamCallKinds } from '../../src/limits/upstream-call-kinds.ts';
import { RecordWeights, UNKNOWN_RECORD_BYTES } from '../../src/objects/record-weights.ts';
import { valueBytes } from '../../src/objects/value-bytes.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const schema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR });
const kinds = upstreamCallKinds(schema);
const pageLimits = { defaultPageSize: 20, maxPageSize: 100, upstreamMaxPageSize: 1000 };
const BLOB = 'com.example.Blob';

function shapeOf(query: string, variables?: Record<string, unknown>) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operation === undefined) throw new Error('no operation');
  return answerShape({ schema, kinds, document, operation, variables, pageLimits });
}

/** `keys` response keys of `nodes { data }` under one page of `first: $n`. */
function attack(keys: number): string {
  const aliases = Array.from({ length: keys - 1 }, (_, i) => `a${i}: nodes { data }`).join(' ');
  return `query Attack($n: Int!) { objects(objectName: "${BLOB}", first: $n) { nodes { data } ${aliases} } }`;
}

describe('valueBytes', () => {
  it.each([
    [
      'a plain record',
      { _id: 'a1', name: 'Ada', n: 12.5, ok: true, none: null, list: [1, 'two', { three: 3 }] },
    ],
    [
      'strings that JSON escapes',
      { quote: '"', backslash: '\\', line: 'a\nb\tc\r', control: '\u0001\u001f' },
    ],
    ['lone surrogates', { high: 'a\ud800b', low: '\udc00', pair: '😀' }],
    ['an empty object and array', { o: {}, a: [] }],
    ['a long string', { payload: 'x'.repeat(75_000) }],
  ])('should weigh %s as JSON.stringify writes it', (_what, value) => {
    expect(valueBytes(value)).toBe(JSON.stringify(value).length);
  });

  it('should weigh scalars as JSON writes them', () => {
    for (const value of ['', 'abc', 0, -1.5, 1e21, true, false, null]) {
      expect(valueBytes(value)).toBe(JSON.stringify(value).length);
    }
  });
});

describe('RecordWeights', () => {
  it('should rise at once to a heavier record and sink slowly', () => {
    const weights = new RecordWeights();
    expect(weights.weightOf(BLOB)).toBe(UNKNOWN_RECORD_BYTES);
    weights.learn(BLOB, 75_000);
    for (let i = 0; i < 5; i++) weights.learn(BLOB, 10);
    expect(weights.weightOf(BLOB)).toBeGreaterThan(30_000);
  });

  it('should keep at most its bound of types', () => {
    const weights = new RecordWeights(3);
    for (let i = 0; i < 10; i++) weights.learn(`t${i}`, 100);
    expect(weights.size).toBeLessThanOrEqual(3);
  });
});

describe('cost with the request’s values', () => {
  it('should multiply by a page size given in a variable as by a literal one', () => {
    const shape = shapeOf(attack(16), { n: 100 });
    const literal = parse(attack(16).replace('first: $n', 'first: 100'));
    const operation = literal.definitions[0] as OperationDefinitionNode;
    expect(shape?.cost).toBe(operationCost(schema, literal, operation));
    // The validation rule alone, without the variables, counted `first: $n` as 1.
    const asWritten = parse(attack(16));
    expect(
      operationCost(schema, asWritten, asWritten.definitions[0] as OperationDefinitionNode),
    ).toBeLessThan(shape?.cost ?? 0);
  });

  it('should take a variable’s default and a page field’s default page size', () => {
    const withDefault = shapeOf(attack(2).replace('$n: Int!', '$n: Int = 100'), {});
    const given = shapeOf(attack(2), { n: 100 });
    expect(withDefault?.cost).toBe(given?.cost);
    const noSize = shapeOf(`{ objects(objectName: "${BLOB}") { nodes { data } } }`);
    const twenty = shapeOf(`{ objects(objectName: "${BLOB}", first: 20) { nodes { data } } }`);
    expect(noSize?.cost).toBe(twenty?.cost);
  });
});

describe('answerShape', () => {
  it('should count each alias of a record’s value, times the page size', () => {
    const one = shapeOf(attack(1), { n: 100 });
    const sixteen = shapeOf(attack(16), { n: 100 });
    expect(one?.recordUnits).toBe(100);
    expect(sixteen?.recordUnits).toBe(1600);
    expect(sixteen?.objectNames).toEqual([BLOB]);
  });

  it('should count a selection reached through fragments once, as execution merges it', () => {
    const inline = shapeOf(`{ objects(objectName: "${BLOB}", first: 10) { nodes { data } } }`);
    const fragments = shapeOf(
      `query { objects(objectName: "${BLOB}", first: 10) { ...A ...B } }
       fragment A on DataObjectConnection { nodes { data } }
       fragment B on DataObjectConnection { nodes { data } }`,
    );
    expect(fragments?.recordUnits).toBe(inline?.recordUnits);
  });

  it('should estimate with the heaviest learnt weight of the types read', () => {
    const weights = new RecordWeights();
    weights.learn(BLOB, 75_000);
    const shape = shapeOf(attack(16), { n: 100 });
    if (shape === undefined) throw new Error('no shape');
    expect(estimatedBytes(shape, weights)).toBeGreaterThan(1600 * 75_000);
  });

  it('should weigh a typed page by its record’s fields', () => {
    const shape = shapeOf(`{ loanTypes(first: 10) { nodes { id name } } }`);
    expect(shape?.objectNames).toEqual(['com.example.LoanType']);
    expect(shape?.recordUnits).toBeGreaterThan(0);
    expect(shape?.recordUnits).toBeLessThanOrEqual(10);
  });

  it('should leave variables that do not fit to execution', () => {
    expect(shapeOf(attack(2), { n: 'many' })).toBeUndefined();
  });
});

describe('the budget and the meter', () => {
  const budget = () =>
    createAnswerBytesBudget({ totalBytes: 3_000_000, perUserBytes: 2_000_000, anonymousBytes: 100_000 });
  /** A meter of user `a`'s request on `answers`: 1,000,000 bytes at most, its free part allowed. */
  const meterOfA = (answers: AnswerBytesBudget) =>
    new RequestAnswerMeter({
      budget: answers,
      lease: answers.lease('a'),
      holder: 'a',
      maxBytes: 1_000_000,
      weights: new RecordWeights(),
      allowedBytes: FREE_ANSWER_BYTES,
    });

  it('should hold one user to its share and everyone to the total, and give all back', () => {
    const answers = budget();
    const a = answers.lease('a');
    expect(a.take(2_000_000)).toBeUndefined();
    expect(answers.lease('a').take(1)).toBe('share');
    const b = answers.lease('b');
    expect(b.take(1_000_001)).toBe('total');
    expect(b.take(1_000_000)).toBeUndefined();
    a.release();
    b.release();
    expect(answers.heldBytes()).toBe(0);
    expect(answers.holders()).toBe(0);
  });

  it('should stop an answer past MAX_ANSWER_BYTES with its named error, and keep refusing', () => {
    const answers = budget();
    const meter = meterOfA(answers);
    const record = { payload: 'x'.repeat(75_000) };
    let error: unknown;
    try {
      for (let i = 0; i < 100; i++) meter.chargeRecord(BLOB, record);
    } catch (caught) {
      error = caught;
    }
    expect((error as { extensions?: Record<string, unknown> }).extensions).toMatchObject({
      code: 'MAX_ANSWER_BYTES_EXCEEDED',
      limit: 'MAX_ANSWER_BYTES',
    });
    expect(meter.counted).toBeLessThanOrEqual(1_000_000 + valueBytes(record));
    expect(() => {
      meter.charge('x');
    }).toThrow(/MAX_ANSWER_BYTES/);
    meter.release();
    expect(answers.heldBytes()).toBe(0);
  });

  it('should stop an answer past its user’s share with answer_bytes_share', () => {
    const answers = budget();
    const other = answers.lease('a');
    expect(other.take(1_900_000)).toBeUndefined();
    const meter = meterOfA(answers);
    expect(() => {
      for (let i = 0; i < 10; i++) meter.charge('x'.repeat(75_000));
    }).toThrow(/MAX_INFLIGHT_ANSWER_BYTES_PER_USER/);
  });
});
