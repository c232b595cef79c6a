/** The free type name offered when an object name's last part is taken (`com.corp.Order` → `CorpOrder`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestTypeName } from '../../src/typed/spec/suggest-type-name.ts';

describe('suggestTypeName', () => {
  it.each([
    ['com.corp.Order', ['Order'], 'CorpOrder'],
    ['com.corp.Order', ['Order', 'CorpOrder'], 'ComCorpOrder'],
    ['com.corp.Order', ['Order', 'CorpOrder', 'ComCorpOrder'], 'ComCorpOrder2'],
    ['Order', ['Order'], 'Order2'],
    ['com.acme-eu.v2.Invoice', ['Invoice'], 'V2Invoice'],
    ['com.acme.2fa.Code', ['Code'], 'T2faCode'],
  ])('should name %s, beside %j, %s', (objectName, taken, expected) => {
    expect(suggestTypeName(objectName, new Set(taken))).toBe(expected);
  });

  it('should always answer a GraphQL name that is not taken', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_$-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), fc.array(part), (parts, taken) => {
        const name = suggestTypeName(parts.join('.'), new Set(taken));
        expect(name).toMatch(/^[_A-Za-z][_0-9A-Za-z]*$/);
        expect(taken).not.toContain(name);
      }),
    );
  });
});
