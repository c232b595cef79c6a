/**
 * The demo `LoanType` written and read through the generic API (`saveObject`, `updateObject`, `object`) by a
 * harness's Apollo Client, as the write tests' journeys do in every write dialect: each answers the client's
 * result whole (errors included, the client's `errorPolicy` is `all`), so a test holds it to what it expects.
 */
import { expect } from 'vitest';
import type { Harness } from './gateway-harness.ts';
import { ObjectDocument, SaveDocument, UpdateDocument } from './operations.ts';

const LOAN = 'com.example.LoanType';

/** `saveObject` of `data` (with `_id`, a save of an existing object). */
export function saveLoan(h: Harness, token: string, data: Record<string, unknown>) {
  return h.client(token).mutate({ mutation: SaveDocument, variables: { objectName: LOAN, data } });
}

/**
 * Saves a new object of `data` and holds the answer to it: no error, and the object whole as written (its
 * `_id` beside `data`), never null or partial. Answers the new id.
 */
export async function saveNewLoan(h: Harness, token: string, data: Record<string, unknown>): Promise<string> {
  const created = await saveLoan(h, token, data);
  expect(created.error).toBeUndefined();
  const id = created.data!.saveObject.id;
  expect(created.data!.saveObject.object?.data).toEqual({ _id: id, ...data });
  return id;
}

/** `updateObject` of object `id` with `data`. */
export function updateLoan(h: Harness, token: string, id: string, data: Record<string, unknown>) {
  return h.client(token).mutate({ mutation: UpdateDocument, variables: { id, objectName: LOAN, data } });
}

/** The `data` of object `id` as `object` reads it now; `undefined` when it answers none. */
export async function readLoan(h: Harness, token: string, id: string) {
  const result = await h.client(token).query({ query: ObjectDocument, variables: { objectName: LOAN, id } });
  return result.data?.object?.data;
}
