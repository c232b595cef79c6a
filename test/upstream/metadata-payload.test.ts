/**
 * Where a metadata answer carries its payload (`UPSTREAM_METADATA_KEY`): read under the key set, `null` when
 * the answer carries none, and `UPSTREAM_DIALECT_MISMATCH` naming the key found when it sits under another.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { metadataPayload } from '../../src/upstream/dialect/metadata-payload.ts';

const failure = (answer: Record<string, unknown>, key = 'data'): UpstreamError => {
  try {
    metadataPayload(answer, key);
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected a mismatch');
};

describe('metadataPayload', () => {
  it('should read the payload under the key set, whatever it holds', () => {
    const payload = { objectId: 'o1', version: 3 };
    expect(metadataPayload({ status: 'success', data: payload }, 'data')).toBe(payload);
    expect(metadataPayload({ status: 'success', metadata: payload, data: 'x' }, 'metadata')).toBe(payload);
    expect(metadataPayload({ status: 'success', data: [1, 2] }, 'data')).toEqual([1, 2]);
    expect(metadataPayload({ status: 'success', data: null }, 'data')).toBeNull();
  });

  it('should answer null for a success that carries no payload, as the schema always allowed', () => {
    expect(metadataPayload({ status: 'success' }, 'data')).toBeNull();
    expect(metadataPayload({ status: 'success', message: 'no metadata', count: 0 }, 'data')).toBeNull();
  });

  it('should name the one other key holding an object, and the setting that reads it', () => {
    const error = failure({ status: 'success', message: 'ok', metadata: { objectId: 'o1' } });
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.assumption).toEqual({ name: 'metadata_key', setting: 'UPSTREAM_METADATA_KEY' });
    expect(error.detail).toBe(
      'the metadata answer has no "data" but a payload under "metadata": set UPSTREAM_METADATA_KEY=metadata.',
    );
    expect(failure({ status: 'success', data: { a: 1 } }, 'metadata').detail).toContain(
      'UPSTREAM_METADATA_KEY=data.',
    );
  });

  it('should list several candidates, and offer no value the setting cannot take', () => {
    expect(failure({ status: 'success', a: {}, b: [] }).detail).toBe(
      'the metadata answer has no "data" but objects under "a", "b": set UPSTREAM_METADATA_KEY to the key that holds the payload.',
    );
    expect(failure({ status: 'success', 'meta-data': {} }).detail).toContain(
      'under "meta-data": set UPSTREAM_METADATA_KEY to the key',
    );
  });

  it('should read an own __proto__ key as any other, polluting nothing', () => {
    const answer = JSON.parse('{"status":"success","__proto__":{"objectId":"o1"}}') as Record<
      string,
      unknown
    >;
    expect(failure(answer).detail).toContain('UPSTREAM_METADATA_KEY=__proto__.');
    expect(metadataPayload(answer, '__proto__')).toEqual({ objectId: 'o1' });
    expect(({} as Record<string, unknown>).objectId).toBeUndefined();
  });

  it('should, for any answer, give the payload under the key, null, or a metadata_key mismatch: nothing else', () => {
    const key = fc.constantFrom('data', 'metadata', '__proto__', 'status', 'x');
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), key, (fields, k) => {
        const answer: Record<string, unknown> = { ...fields, status: 'success' };
        try {
          const payload = metadataPayload(answer, k);
          if (Object.hasOwn(answer, k)) expect(payload).toBe(answer[k] ?? null);
          else expect(payload).toBeNull();
        } catch (error) {
          expect(error).toBeInstanceOf(UpstreamError);
          expect((error as UpstreamError).assumption?.name).toBe('metadata_key');
          expect(Object.hasOwn(answer, k)).toBe(false);
        }
      }),
      { numRuns: 500, seed: 28 },
    );
  });
});
