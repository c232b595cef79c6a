/** What the write probes share: a call that may fail with an `UpstreamError`, and reading an object back. */
import { isUpstreamError, type UpstreamError } from '../../../errors/upstream-error.ts';
import type { AssumptionName } from '../../../upstream/dialect/assumptions.ts';
import type { UpstreamRecord } from '../../../upstream/client/types.ts';
import type { CheckContext } from '../../check-context.ts';
import { matches } from '../filter-probe.ts';
import { idPatternFor } from '../probe-objects.ts';
import { readUntil, type ReadUntil } from '../read-lag/read-until.ts';

/** A call's value, or its `UpstreamError`. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: UpstreamError };

/** Runs `call`; any other error than an `UpstreamError` is the check's own bug and goes on. */
export async function attempt<T>(call: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isUpstreamError(error)) return { ok: false, error };
    throw error;
  }
}

/** Whether `error` is the gateway's `UPSTREAM_DIALECT_MISMATCH` of assumption `name`. */
export function isMismatchOf(error: UpstreamError, name: AssumptionName): boolean {
  return error.kind === 'dialect_mismatch' && error.assumption?.name === name;
}

/** The object `id` of the scratch type as it reads now; `undefined` when the read failed. */
export async function readBack(
  context: CheckContext,
  objectName: string,
  id: string,
): Promise<UpstreamRecord | null | undefined> {
  const criteria = [matches('_id', idPatternFor(context, id))];
  const found = await attempt(() => context.client.getObject(context.credentials, objectName, criteria));
  if (!found.ok || found.value === null) return found.ok ? null : undefined;
  // The gateway reads its writes back through getAll (reads by id are batched there): an upstream may serve
  // getAll from a cache that getObject bypasses, so a write shows only once both reads show it.
  const listed = await attempt(() =>
    context.client.getAll(context.credentials, objectName, criteria, 1, context.learnt.firstPageStart),
  );
  if (!listed.ok) return undefined;
  return listed.value.records.find((record) => record._id === found.value?._id) ?? null;
}

/** {@link readBack} again until the object `shows` the write, within the check's wait (`read-until.ts`). */
export function readBackUntil(
  context: CheckContext,
  objectName: string,
  id: string,
  shows: (record: UpstreamRecord | null | undefined) => boolean,
): Promise<ReadUntil<UpstreamRecord | null | undefined>> {
  return readUntil(context, () => readBack(context, objectName, id), shows);
}
