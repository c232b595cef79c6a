import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filter, getAll, ids } from '../support/emulator-wire.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();
const { emulator: exact, demo: demoOnExact } = useEmulator({ matches: 'exact' });

const CUSTOMER = 'com.example.Customer';
const ORDER = 'com.example.Order';
const LOAN = 'com.example.LoanType';

interface Customer {
  _id: string;
  name: string;
  email: string;
  address: { city: string; country: string };
}

const customersWhere = async (...criteria: [string, string][]): Promise<Customer[]> => {
  const answer = await getAll(emulator, demo, CUSTOMER, {
    pageSize: '1000',
    filterCommand: filter(...criteria),
  });
  expect(answer.json.status).toBe('success');
  return answer.json.data as Customer[];
};

describe('matches in regex mode', () => {
  it('should match the whole string, as Java String.matches does', async () => {
    const whole = await customersWhere(['name', 'Ada.*']);
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((c) => c.name.startsWith('Ada'))).toBe(true);
    expect(await customersWhere(['name', 'Ada'])).toEqual([]);
    expect(await customersWhere(['name', 'da Lovelace'])).toEqual([]);
  });

  it("should read the pattern with Java's syntax: \\p{…}, \\Q…\\E, (?i), possessive quantifiers", async () => {
    const ada = await customersWhere(['name', 'Ada.*']);
    expect(await customersWhere(['name', '\\p{Lu}\\p{Ll}+\\h.*'])).toEqual(expect.arrayContaining(ada));
    expect(await customersWhere(['name', '\\QAda\\E.*'])).toEqual(ada);
    expect(await customersWhere(['name', '(?i)ADA.*'])).toEqual(ada);
    expect(await customersWhere(['name', 'Ada.*+'])).toEqual(ada);
    expect(await customersWhere(['name', 'A.*+a.*'])).toEqual([]);
  });

  it('should combine criteria with AND', async () => {
    const both = await customersWhere(['name', 'Ada.*'], ['address.city', 'Oslo|Paris']);
    const ada = await customersWhere(['name', 'Ada.*']);
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(ada.length);
    expect(both).toEqual(ada.filter((c) => ['Oslo', 'Paris'].includes(c.address.city)));
  });

  it('should walk nested objects with a dotted fieldName', async () => {
    const [order] = (await getAll(emulator, demo, ORDER, { pageSize: '1' })).json.data as {
      customer: { id: string };
    }[];
    const answer = await getAll(emulator, demo, ORDER, {
      pageSize: '1000',
      filterCommand: filter(['customer.id', order!.customer.id]),
    });
    const orders = answer.json.data as { customer: { id: string } }[];
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.customer.id === order!.customer.id)).toBe(true);
  });

  it('should compare numbers by their String() form', async () => {
    const all = (await getAll(emulator, demo, LOAN, { pageSize: '1000' })).json.data as { rate: number }[];
    const rate = all[3]!.rate;
    const answer = await getAll(emulator, demo, LOAN, { filterCommand: filter(['rate', String(rate)]) });
    expect((answer.json.data as { rate: number }[]).map((l) => l.rate)).toEqual(
      all.filter((l) => l.rate === rate).map((l) => l.rate),
    );
    expect(answer.json.totalCount).toBeGreaterThan(0);
  });

  it('should not match a missing field, not even with .*', async () => {
    expect(await customersWhere(['nickname', '.*'])).toEqual([]);
    expect(await customersWhere(['address.city.x', '.*'])).toEqual([]);
  });

  it('should look up a batch of ids in insertion order, whatever their order in the pattern', async () => {
    const page = ids(await getAll(emulator, demo, ORDER, { pageSize: '5', pageStart: '3' }));
    const shuffled = [page[3], page[0], page[4], 'ffffffffffffffffffffffff', page[1]].join('|');
    const answer = await getAll(emulator, demo, ORDER, { filterCommand: filter(['_id', `(${shuffled})`]) });
    expect(ids(answer)).toEqual([page[0], page[1], page[3], page[4]]);
    expect(answer.json.totalCount).toBe(4);
  });

  it('should treat the _id value as a pattern when it is not a list of literal ids', async () => {
    const [first] = ids(await getAll(emulator, demo, ORDER, { pageSize: '1' }));
    const answer = await getAll(emulator, demo, ORDER, {
      filterCommand: filter(['_id', `${first!.slice(0, 20)}.{4}`]),
    });
    expect(ids(answer)).toContain(first);
  });

  it.each([
    ['unbalanced (', 'Ada('],
    ['an unbalanced ) that would escape the full-string group', 'x)|(.*'],
    ['a dangling backslash', 'Ada\\'],
    ['a bad class', '[z-a]'],
    ['nothing to repeat', '*'],
  ])('should answer status error for %s', async (_, value) => {
    const answer = await getAll(emulator, demo, CUSTOMER, { filterCommand: filter(['name', value]) });
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toMatch(/regular expression/);
  });

  it.each([
    ['(a+)+$', 'nested'],
    ['(a|a)*b', 'alternation of overlapping branches'],
    ['(.*a){25}', 'counted repetition of a quantifier'],
    ['(x+x+)+y', 'nested quantifiers'],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', 'the OWASP example'],
    ['(a|aa)+b', 'prefix-ambiguous branches'],
    ['(a*)*b', 'star of star'],
    ['(\\w+\\s?)+$', 'word-space repetition'],
    ['(a+)\\1', 'backreference'],
    ['(?=a+)a*b', 'lookahead'],
    ['a{100000}', 'huge count'],
    ['.{0,1000}.{0,1000}.{0,1000}x', 'polynomial counted repetition'],
    // Java's (?i:a) now becomes [aA], which the linear-time engine runs; a possessive quantifier becomes a
    // lookahead idiom, which it cannot, so the polynomial tail is refused.
    ['a++.*.*.*.*x', 'possessive quantifier beside polynomial repetition'],
  ])('should refuse the hostile pattern %s (%s) with a status error', async (value) => {
    const answer = await getAll(emulator, demo, CUSTOMER, {
      filterCommand: filter(['name', value], ['email', value]),
    });
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toMatch(/regular expression/);
  });

  it('should accept harmless repetition and literal prefix-free alternation', async () => {
    for (const value of [
      '(Ada|Alan)( \\w+)',
      '(ab|cd)+',
      '[A-Z][a-z]+ [A-Z][a-z]+',
      '.*@acme\\.example\\.com',
      'A(?:da|lan) .*',
    ]) {
      const answer = await getAll(emulator, demo, CUSTOMER, { filterCommand: filter(['name', value]) });
      expect(answer.json.status, value).toBe('success');
    }
  });

  it('should keep answering quickly when a saved long value meets a polynomial pattern', async () => {
    // `.*.*.*.*x` is allowed by the screen, but backtracks polynomially; V8's linear fallback bounds it.
    const save = await fetch(`${emulator.url}/studio/jsonp/save?callback=cb`, {
      method: 'POST',
      body: JSON.stringify({
        objectName: LOAN,
        data: { loanType: 'a'.repeat(50_000) },
        apiToken: demo.apiToken,
        applicationCode: demo.applicationCode,
        organizationCode: 'acme',
      }),
    });
    expect(await save.text()).toContain('success');
    const answer = await getAll(emulator, demo, LOAN, { filterCommand: filter(['loanType', '.*.*.*.*.*x']) });
    expect(answer.json).toEqual({ status: 'success', data: [], totalCount: 0 });
  });

  it('should answer every client pattern with success or a plain error (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[()|*+?{}[\]\\.^$a-c0-2,:=!<>-]{0,24}$/), async (value) => {
        const answer = await getAll(emulator, demo, CUSTOMER, {
          pageSize: '1',
          filterCommand: filter(['name', value], ['address.city', value]),
        });
        expect(answer.status).toBe(200);
        expect(['success', 'error']).toContain(answer.json.status);
      }),
      { numRuns: 150 },
    );
  });
});

describe('matches in exact mode', () => {
  it('should compare with plain equality, regex characters included', async () => {
    const [customer] = (await getAll(exact, demoOnExact, CUSTOMER, { pageSize: '1' })).json
      .data as Customer[];
    const equal = await getAll(exact, demoOnExact, CUSTOMER, {
      filterCommand: filter(['name', customer!.name]),
    });
    expect((equal.json.data as Customer[]).every((c) => c.name === customer!.name)).toBe(true);
    expect(equal.json.totalCount).toBeGreaterThan(0);
    const pattern = await getAll(exact, demoOnExact, CUSTOMER, { filterCommand: filter(['name', 'Ada.*']) });
    expect(pattern.json).toEqual({ status: 'success', data: [], totalCount: 0 });
    const hostile = await getAll(exact, demoOnExact, CUSTOMER, { filterCommand: filter(['name', '(a+)+']) });
    expect(hostile.json.status).toBe('success');
  });

  it('should find an object by _id and by a dotted path', async () => {
    const [order] = (await getAll(exact, demoOnExact, ORDER, { pageSize: '1' })).json.data as {
      _id: string;
      customer: { id: string };
    }[];
    const byId = await getAll(exact, demoOnExact, ORDER, { filterCommand: filter(['_id', order!._id]) });
    expect(ids(byId)).toEqual([order!._id]);
    const byCustomer = await getAll(exact, demoOnExact, ORDER, {
      filterCommand: filter(['customer.id', order!.customer.id]),
    });
    expect(ids(byCustomer)).toContain(order!._id);
  });
});
