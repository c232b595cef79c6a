/**
 * `__proto__` (and `constructor` holding `prototype`) is refused in the document's object literals as the
 * request body's parser refuses it in the variables: same code, same words, nothing sent to the upstream.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

const LOAN = 'com.example.LoanType';
const FORBIDDEN = '(`__proto__` or `constructor.prototype`).';

let auth: Record<string, string>;
const h = useHarness({ listen: false });
beforeAll(async () => {
  auth = { authorization: `Bearer ${await h.login()}` };
});

const save = (data: string, variables = '') =>
  `mutation Save${variables} { saveObject(objectName: "${LOAN}", data: ${data}) { id object { data } } }`;

describe('forbidden keys in object literals', () => {
  it.each([
    ['at the top of a JSON object', save('{__proto__: {isAdmin: true}}')],
    ['in a nested object', save('{loanType: "Home", terms: {rate: {__proto__: {x: 1}}}}')],
    ['in an object of a list', save('{items: [{a: 1}, {b: [{__proto__: {x: 1}}]}]}')],
    ['as constructor.prototype', save('{constructor: {prototype: {isAdmin: true}}}')],
    ['beside a variable', save('{__proto__: $x}', '($x: JSON)')],
    ['holding a variable', save('{a: {__proto__: {b: $x}}}', '($x: JSON)')],
    [
      'in a typed input',
      'mutation { updateOrder(id: "1", input: { status: "PAID", __proto__: "x" }) { object { id } } }',
    ],
  ])('should refuse __proto__ %s with BAD_REQUEST before any upstream call', async (_where, query) => {
    const before = h.totalUpstreamCalls();
    const answer = await h.post(query, { x: 1 }, auth);
    expect(answer.status).toBe(400);
    const refusal = answer.errors?.find((e) => e.extensions?.code === 'BAD_REQUEST');
    expect(refusal).toMatchObject({
      message: `The document holds a forbidden key ${FORBIDDEN}`,
      extensions: { code: 'BAD_REQUEST', blame: 'caller' },
    });
    expect((refusal as { locations?: unknown[] } | undefined)?.locations).toHaveLength(1);
    expect(answer.data).toBeUndefined();
    expect(h.totalUpstreamCalls()).toBe(before);
  });

  it('should refuse the same key in the variables with the same code and words', async () => {
    const response = await h.fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: `{"query":${JSON.stringify(save('$data', '($data: JSONObject!)'))},"variables":{"data":{"__proto__":{"isAdmin":true}}}}`,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0]?.message).toBe(`The request body holds a forbidden key ${FORBIDDEN}`);
  });

  it('should store constructor and prototype alone, ordinary keys, as the variables do', async () => {
    const answer = await h.post(
      save('{loanType: "Odd keys", constructor: "c", prototype: {a: 1}}'),
      {},
      auth,
    );
    expect(answer.errors).toBeUndefined();
    const saved = answer.data as { saveObject: { object: { data: Record<string, unknown> } } };
    expect(saved.saveObject.object.data).toMatchObject({ constructor: 'c', prototype: { a: 1 } });
  });
});
