/** Reads what a test needs to know first: every stored object of a type, through the gateway. */
import { beforeAll } from 'vitest';
import type { Harness } from './gateway-harness.ts';
import { ObjectsDocument } from './operations.ts';

/** The first 100 objects of `objectName` (all of the demo data's), read as the holder of `token`. */
export async function listObjects(h: Harness, token: string, objectName: string) {
  const all = await h.client(token).query({ query: ObjectsDocument, variables: { objectName, first: 100 } });
  if (all.data === undefined) throw new Error(`listing ${objectName} failed: ${JSON.stringify(all.error)}`);
  return all.data.objects.nodes;
}

/** The demo user's token and the ids of `objectName`'s objects (the first 100), read before the file's tests. */
export function useDemoSession(h: Harness, objectName: string): { token: string; ids: string[] } {
  const session = { token: '', ids: [] as string[] };
  beforeAll(async () => {
    session.token = await h.login();
    session.ids = (await listObjects(h, session.token, objectName)).map((n) => n.id);
  });
  return session;
}
