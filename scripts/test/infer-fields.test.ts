/**
 * Inferring fields from records: types from the values seen, nested values flattened, and, whatever the
 * records hold (they come from the network), a file the gateway's own schema checks accept.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFieldStats } from '../infer/field-stats.ts';
import { inferFields } from '../infer/infer-fields.ts';
import { printObjectType } from '../infer/print-object-type.ts';
import { readTypeDefs } from '../../src/app/build-schema.ts';
import { buildTypedApi } from '../../src/typed/build-typed-api.ts';
import { parseExactJson } from '../../src/upstream/dialect/exact-json.ts';

const infer = (records: Record<string, unknown>[]) =>
  inferFields(collectFieldStats(records), records.length, []).map((f) => ({
    name: f.name,
    type: `${f.type}${f.nonNull ? '!' : ''}`,
    path: f.path,
  }));

describe('inferFields', () => {
  it('should type numbers past 2^53 losslessly: Long for whole ones, JSON beside fractions or for other exact numbers', () => {
    // As the gateway's upstream client reads them: a number a double would change keeps its digits.
    const records = parseExactJson(
      '[{"no":9007199254740993,"mixed":9007199254740993,"wide":4294967296,"dec":0.12345678901234567890123},' +
        '{"no":3,"mixed":2.5,"wide":1,"dec":1}]',
    ) as Record<string, unknown>[];
    expect(infer(records)).toEqual([
      { name: 'no', type: 'Long', path: undefined },
      { name: 'mixed', type: 'JSON', path: undefined },
      { name: 'wide', type: 'Float', path: undefined },
      { name: 'dec', type: 'JSON', path: undefined },
    ]);
  });

  it('should type each field from every value seen', () => {
    expect(
      infer([
        {
          count: 1,
          price: 2,
          big: 2 ** 40,
          flag: true,
          tags: ['a'],
          mixed: 1,
          scores: [1, 2.5],
          any: [],
          blob: {},
        },
        {
          count: 2,
          price: 2.5,
          big: 1,
          flag: false,
          tags: [],
          mixed: 'x',
          scores: [3],
          any: [1, 'a'],
          blob: {},
        },
      ]),
    ).toEqual([
      { name: 'count', type: 'Int', path: undefined },
      { name: 'price', type: 'Float', path: undefined },
      { name: 'big', type: 'Float', path: undefined },
      { name: 'flag', type: 'Boolean', path: undefined },
      { name: 'tags', type: '[String]', path: undefined },
      { name: 'mixed', type: 'JSON', path: undefined },
      { name: 'scores', type: '[Float]', path: undefined },
      { name: 'any', type: '[JSON]', path: undefined },
      { name: 'blob', type: 'JSONObject', path: undefined },
    ]);
  });

  it('should flatten nested objects, naming a leaf by its path when its last name is taken', () => {
    expect(
      infer([{ name: 'a', address: { city: 'x', name: 'home' }, 'first name': 'y', id: 'own' }]),
    ).toEqual([
      { name: 'name', type: 'String', path: undefined },
      { name: 'city', type: 'String', path: 'address.city' },
      { name: 'addressName', type: 'String', path: 'address.name' },
      { name: 'firstName', type: 'String', path: 'first name' },
      { name: 'idField', type: 'String', path: 'id' },
    ]);
  });

  it('should type a value that is an object in some records and not in others as one JSON field', () => {
    expect(infer([{ note: 'text' }, { note: { by: 'x' } }])).toEqual([
      { name: 'note', type: 'JSON', path: undefined },
    ]);
  });

  it('should require only an always-present text that never repeats', () => {
    const types = infer([
      { code: 'A', label: 'same', n: 1 },
      { code: 'B', label: 'same', n: 2 },
    ]).map((f) => f.type);
    expect(types).toEqual(['String!', 'String', 'Int']);
  });
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const records = fc.array(fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 6 }), {
  minLength: 1,
  maxLength: 5,
});

describe('the printed type', () => {
  it('should pass the gateway schema checks for any records', () => {
    fc.assert(
      fc.property(records, (sample) => {
        const fields = inferFields(collectFieldStats(sample), sample.length, []);
        // Records with no field but `_id` give no type: the command refuses them (tested there).
        fc.pre(fields.length > 0);
        const sdl = printObjectType(
          {
            objectName: 'com.probe.Thing',
            typeName: 'Thing',
            sampled: sample.length,
            total: sample.length,
            date: '2026-01-01',
          },
          fields,
        );
        const dir = mkdtempSync(join(tmpdir(), 'infer-property-'));
        writeFileSync(join(dir, 'thing.graphql'), sdl);
        const api = buildTypedApi({ dir, baseTypeDefs: readTypeDefs() });
        expect(api.specs[0]?.fields.length).toBe(fields.length + 1);
      }),
      { numRuns: 200 },
    );
  });
});
