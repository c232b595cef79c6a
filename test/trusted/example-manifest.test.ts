/**
 * The example front-end's persisted-documents manifest, as GraphQL Code Generator's client preset writes it
 * with its `addTypenameSelectionDocumentTransform` (codegen.yml, scripts/codegen-add-typename.ts): every document asks for `__typename`
 * wherever Apollo Client would have added it, so Apollo's cache normalises answers to documents the gateway
 * runs from the manifest (`LoanType:<id>` entries, not only `ROOT_QUERY`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { addTypenameToDocument } from '@apollo/client/utilities';
import { Kind, parse, print, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createPersistedLink, documentHash } from '../../examples/web/src/persisted-link.ts';
// What the page's `graphql()` calls answer (examples/web/src/operations.ts), with their manifest ids.
import * as operations from '../../examples/web/src/generated/graphql.ts';
import { useHarness } from '../support/gateway-harness.ts';

const MANIFEST = fileURLToPath(
  new URL('../../examples/web/src/generated/persisted-documents.json', import.meta.url),
);
const manifest = Object.entries(JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>);

function isOperation(value: unknown): value is DocumentNode {
  const node = value as Partial<DocumentNode> | null;
  return node?.kind === Kind.DOCUMENT && node.definitions!.some((d) => d.kind === Kind.OPERATION_DEFINITION);
}

describe("the example's manifest", () => {
  it.each(manifest)('should hold %s with __typename wherever Apollo Client adds it', (id, text) => {
    expect(id).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    const document = parse(text);
    // Apollo adds `__typename` to every selection set but the root: nothing is left for it to add.
    expect(print(addTypenameToDocument(document))).toBe(print(document));
    expect(text).toContain('__typename');
  });

  it("should hold every document the example sends, under the id the page's link sends", () => {
    const ids = new Set(manifest.map(([id]) => id.replace(/^sha256:/, '')));
    const documents = Object.values(operations as Record<string, unknown>).filter(isOperation);
    expect(documents.length).toBeGreaterThan(3);
    for (const document of documents) expect(ids).toContain(documentHash(document));
  });
});

describe('Apollo Client on a gateway that runs only the manifest', () => {
  const h = useHarness({ env: { TRUSTED_DOCUMENTS: MANIFEST, TRUSTED_DOCUMENTS_ONLY: 'true' } });

  /** The example's own link chain (persisted ids, never texts), with Apollo's default cache. */
  const client = (sent: unknown[], token?: string) =>
    new ApolloClient({
      link: ApolloLink.from([
        createPersistedLink(),
        new HttpLink({
          uri: h.graphqlUrl,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          fetch: (input, init) => {
            sent.push(JSON.parse(typeof init?.body === 'string' ? init.body : '{}'));
            return fetch(input, init);
          },
        }),
      ]),
      cache: new InMemoryCache(),
      // The test project's Apollo types declare `errorPolicy: 'all'` (test/support/apollo-defaults.d.ts).
      defaultOptions: { query: { errorPolicy: 'all' }, mutate: { errorPolicy: 'all' } },
    });

  it('should normalise the answers into one cache entry per object', async () => {
    const sent: unknown[] = [];
    const signIn = await client(sent).mutate({
      mutation: operations.SignInDocument,
      variables: { username: 'demo', password: 'demo-password' },
    });
    const token = (signIn.data as { login: { token: string } }).login.token;
    const reader = client(sent, token);
    const page = await reader.query({ query: operations.LoanTypesDocument, variables: { first: 3 } });
    const data = page.data as { loanTypes: { edges: { node: { id: string } }[] } };
    const ids = data.loanTypes.edges.map((edge) => edge.node.id);
    expect(ids).toHaveLength(3);
    const keys = Object.keys(reader.cache.extract() as Record<string, unknown>);
    expect(keys.filter((key) => key.startsWith('LoanType:')).sort()).toEqual(
      ids.map((id) => `LoanType:${id}`).sort(),
    );
    // Only ids went over the wire.
    expect(sent).toHaveLength(2);
    for (const body of sent) expect(body).not.toHaveProperty('query');
  });
});
