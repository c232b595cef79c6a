/**
 * The HTTP edges of the real gateway on a loopback port: every error outside GraphQL execution comes in the
 * GraphQL-over-HTTP shape with a stable code, subscriptions are refused as the caller's mistake, and every
 * `/graphql` answer is marked uncacheable and unsniffable.
 */
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { slowClient } from '../support/raw-http-client.ts';

let base: string;
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n')));
const h = useHarness({ logStream });
beforeAll(() => {
  base = h.graphqlUrl.replace(/\/graphql$/, '');
});

/** POSTs `body` as is and answers status, headers and parsed JSON. */
async function post(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(h.graphqlUrl, { method: 'POST', headers, body });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

/** The GraphQL-over-HTTP error body with one error of `code`. */
function errorWith(code: string) {
  return { errors: [{ message: expect.any(String) as unknown, extensions: { code, blame: 'caller' } }] };
}

describe('errors outside GraphQL execution', () => {
  it('should answer a malformed JSON body with 400 BAD_REQUEST in the GraphQL shape', async () => {
    const answer = await post('{"query": "{ me { username } }"');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual({
      errors: [
        {
          message: 'The request body is not valid JSON.',
          extensions: { code: 'BAD_REQUEST', blame: 'caller' },
        },
      ],
    });
  });

  it('should answer an empty JSON body with 400 BAD_REQUEST', async () => {
    const answer = await post('');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorWith('BAD_REQUEST'));
  });

  it('should answer a body holding __proto__ with 400 BAD_REQUEST', async () => {
    const answer = await post('{"query":"{ me { username } }","__proto__":{"polluted":true}}');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorWith('BAD_REQUEST'));
  });

  it('should answer an unsupported content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const answer = await post('<query/>', { 'content-type': 'application/xml' });
    expect(answer.status).toBe(415);
    expect(answer.json).toEqual(errorWith('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('should answer an unknown path with 404 NOT_FOUND', async () => {
    const response = await fetch(`${base}/graphq1`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      errors: [{ message: 'Not found.', extensions: { code: 'NOT_FOUND', blame: 'caller' } }],
    });
  });

  it.each(['PUT', 'DELETE', 'PATCH'])(
    'should answer %s /graphql with 405 METHOD_NOT_ALLOWED and an Allow header',
    async (method) => {
      const response = await fetch(h.graphqlUrl, {
        method,
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ me { username } }"}',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(await response.json()).toEqual(errorWith('METHOD_NOT_ALLOWED'));
    },
  );

  it('should answer a body over MAX_BODY_BYTES with 413 BODY_TOO_LARGE and log it as the outcome', async () => {
    const answer = await post(JSON.stringify({ query: `{ me { username } } # ${'x'.repeat(200_000)}` }), {
      'content-type': 'application/json',
      'x-request-id': 'too-large-1',
    });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ errors: [{ extensions: { code: 'BODY_TOO_LARGE' } }] });
    const line = logLines.find((l) => l.includes('"reqId":"too-large-1"') && l.includes('"outcome"'));
    expect(line).toContain('"outcome":"BODY_TOO_LARGE"');
  });

  it('should log the code of a refusal as the request outcome', async () => {
    await post('{oops', { 'content-type': 'application/json', 'x-request-id': 'bad-json-1' });
    const line = logLines.find((l) => l.includes('"reqId":"bad-json-1"') && l.includes('"outcome"'));
    expect(line).toContain('"outcome":"BAD_REQUEST"');
  });

  it('should answer a malformed URL with 400 BAD_REQUEST', async () => {
    const exchange = await slowClient(base, {
      opening: 'GET /%zz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n',
    });
    expect(exchange.status).toBe(400);
    expect(JSON.parse(exchange.body)).toEqual(errorWith('BAD_REQUEST'));
  });

  it('should answer a request that is not HTTP with 400 BAD_REQUEST and close the connection', async () => {
    const exchange = await slowClient(base, { opening: 'HELLO\r\n\r\n' });
    expect(exchange.status).toBe(400);
    expect(JSON.parse(exchange.body)).toEqual(errorWith('BAD_REQUEST'));
  });

  it('should answer an unknown GraphiQL asset with 404 NOT_FOUND', async () => {
    const response = await fetch(`${base}/graphiql/assets/nope.js`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(errorWith('NOT_FOUND'));
  });

  it('should keep /healthz, /readyz, /metrics and /graphiql working', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/graphiql', '/graphiql/assets/setup.js']) {
      expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 200]);
    }
  });
});

describe('subscriptions', () => {
  it('should refuse a subscription with 400 BAD_REQUEST saying subscriptions are not supported', async () => {
    const answer = await post(JSON.stringify({ query: 'subscription { me { username } }' }));
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      errors: [
        {
          message:
            'Subscriptions are not supported: this gateway answers queries and mutations over HTTP only.',
          extensions: { code: 'BAD_REQUEST', blame: 'caller' },
        },
      ],
    });
  });

  it('should run the query of a document that also holds a subscription', async () => {
    const answer = await post(
      JSON.stringify({
        query: 'query Me { me { username } } subscription Watch { me { username } }',
        operationName: 'Me',
      }),
    );
    expect(answer).toMatchObject({ status: 200, json: { data: { me: null } } });
  });
});

describe('headers of /graphql', () => {
  const requests: [string, () => Promise<Response>][] = [
    ['a POST query', () => fetch(h.graphqlUrl, jsonPost('{"query":"{ me { username } }"}'))],
    [
      'a GET query',
      () =>
        fetch(`${h.graphqlUrl}?query=${encodeURIComponent('{ me { username } }')}`, {
          headers: { 'apollo-require-preflight': 'true' },
        }),
    ],
    ['a validation error', () => fetch(h.graphqlUrl, jsonPost('{"query":"{ nope }"}'))],
    ['a malformed body', () => fetch(h.graphqlUrl, jsonPost('{nope'))],
    ['a wrong method', () => fetch(h.graphqlUrl, { method: 'DELETE' })],
    ['a GET query without a preflight header', () => fetch(`${h.graphqlUrl}?query=%7Bme%7Busername%7D%7D`)],
    [
      'a mutation refused over GET',
      () => fetch(`${h.graphqlUrl}?query=${encodeURIComponent('mutation { logout }')}`),
    ],
    ['the landing page', () => fetch(h.graphqlUrl, { headers: { accept: 'text/html' } })],
  ];

  it.each(requests)('should mark %s no-store and nosniff', async (_label, send) => {
    const response = await send();
    await response.arrayBuffer();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

function jsonPost(body: string): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body };
}
