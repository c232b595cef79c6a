/**
 * The field the matches probes aim at is one the upstream holds: never a path into the gateway's own exact
 * number (`ledgerNo.rawJSON`, which made every upstream holding a long past 2^53 a false CANNOT SERVE), nor
 * into MongoDB's extended JSON (`customer.$oid`).
 */
import { describe, expect, it } from 'vitest';
import { plainField } from '../../src/upstream-check/probes/match-aim.ts';
import { parseExactJson } from '../../src/upstream/dialect/exact-json.ts';
import type { UpstreamRecord } from '../../src/upstream/client/types.ts';

const record = (json: string) => parseExactJson(json) as UpstreamRecord;

describe('plainField', () => {
  it('should pass over an exact long and an $oid to a real nested text field', () => {
    const found = plainField(
      record(
        '{"_id":"a1","ledgerNo":9007199254740993,"customer":{"$oid":"65a475800102e0c0de000000"},"owner":{"name":"Ada"}}',
      ),
      true,
    );
    expect(found).toEqual({ path: 'owner.name', value: 'Ada' });
  });

  it('should find no nested field where only wrappers are', () => {
    expect(
      plainField(record('{"_id":"a1","ledgerNo":9007199254740993,"at":{"$date":"2026-01-01"}}'), true),
    ).toBe(undefined);
  });
});
