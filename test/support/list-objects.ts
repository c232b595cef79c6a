/** Reads what a test needs to know first: every stored object of a type, through the gateway. */
import type { Harness } from './gateway-harness.ts';
import { ObjectsDocument } from './operations.ts';

/** The first 100 objects of `objectName` (all of the demo data's), read as the holder of `token`. */
export async function listObjects(h: Harness, token: string, objectName: string) {
  const all = await h.client(token).query({ query: ObjectsDocument, variables: { objectName, first: 100 } });
  if (all.data === undefined) throw new Error(`listing ${objectName} failed: ${JSON.stringify(all.error)}`);
  return all.data.objects.nodes;
}
