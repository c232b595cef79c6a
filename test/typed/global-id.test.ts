/**
 * Relay's global ids (`RELAY_NODE=true`): every id the gateway writes reads back to its parts, and any other
 * text, however hostile, is a `GlobalIdError` (never another exception, never a part it did not write).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeGlobalId,
  encodeGlobalId,
  GlobalIdError,
  MAX_GLOBAL_ID_LENGTH,
} from '../../src/typed/global-id.ts';
import { argumentTarget, nodeTargetOf } from '../../src/typed/relay-node-resolvers.ts';
import type { ObjectTypeSpec } from '../../src/typed/spec/object-type-spec.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** Parts as the gateway writes them: well-formed Unicode (upstream ids come from JSON text). */
const part = fc.string({ unit: 'grapheme', maxLength: 60 });

describe('global ids', () => {
  it('should read back the parts of every id it writes', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }), (parts) => {
        const id = encodeGlobalId(parts);
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeGlobalId(id)).toEqual(parts);
      }),
    );
  });

  it('should keep parts apart whatever characters they hold (no separator can be forged)', () => {
    expect(encodeGlobalId(['A:1', 'b'])).not.toBe(encodeGlobalId(['A', '1:b']));
    expect(decodeGlobalId(encodeGlobalId(['DataObject', 'com.x:1:y', '1:2']))).toEqual([
      'DataObject',
      'com.x:1:y',
      '1:2',
    ]);
  });

  it('should refuse any other text with a GlobalIdError and nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String(), fc.string({ unit: 'binary' })), (text) => {
        try {
          const parts = decodeGlobalId(text);
          // Accepted only when it is exactly what the gateway would write for those parts.
          expect(encodeGlobalId(parts)).toBe(text);
        } catch (error) {
          expect(error).toBeInstanceOf(GlobalIdError);
        }
      }),
    );
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'ab+/'],
    ['padded', `${b64('1:1:a')}=`],
    ['too long', 'A'.repeat(MAX_GLOBAL_ID_LENGTH + 1)],
    ['not UTF-8', Buffer.from([0x31, 0x3a, 0xff]).toString('base64url')],
    ['another version', b64('2:1:a')],
    ['no parts', b64('1')],
    ['a length past the end', b64('1:9:abc')],
    ['a length with a leading zero', b64('1:01:a')],
    ['a huge length', b64('1:99999999999:a')],
    ['trailing bytes', `${b64('1:1:a')}x`],
    ['four parts', b64('1:1:a:1:b:1:c:1:d')],
  ])('should refuse %s', (_case, text) => {
    expect(() => decodeGlobalId(text)).toThrow(GlobalIdError);
  });

  it('should name only types of the schema, with an id', () => {
    const spec = { typeName: 'Customer', objectName: 'com.example.Customer' } as ObjectTypeSpec;
    const byType = new Map([['Customer', spec]]);
    expect(nodeTargetOf(encodeGlobalId(['Customer', 'c1']), byType)).toEqual({
      nodeType: 'Customer',
      objectName: 'com.example.Customer',
      id: 'c1',
    });
    expect(nodeTargetOf(encodeGlobalId(['DataObject', 'com.a.B', 'x']), byType)).toEqual({
      nodeType: 'DataObject',
      objectName: 'com.a.B',
      id: 'x',
    });
    for (const parts of [
      ['Invoice', 'i1'],
      ['Customer'],
      ['Customer', ''],
      ['Customer', 'a', 'b'],
      ['DataObject', '', 'x'],
      ['DataObject', 'x'],
    ]) {
      expect(() => nodeTargetOf(encodeGlobalId(parts), byType)).toThrow(GlobalIdError);
    }
  });

  it('should say "not a global id of this gateway" once in a refusal, with the reason', () => {
    const spec = { typeName: 'Customer', objectName: 'com.example.Customer' } as ObjectTypeSpec;
    const byType = new Map([['Customer', spec]]);
    const texts = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(part, { minLength: 1, maxLength: 4 }).map(encodeGlobalId),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let message: string;
        try {
          argumentTarget(text, 'id', byType);
          return;
        } catch (error) {
          message = (error as Error).message;
        }
        // The reason once, then what the argument takes instead (an upstream id is the likeliest mistake).
        expect(message).toMatch(
          /^"id" is not a global id of this gateway \([^()]+\): it takes a global id \(an object's `id`\), not an upstream id \(`upstreamId`\)\.$/,
        );
        expect(message.split('not a global id').length - 1).toBe(1);
      }),
    );
  });
});
