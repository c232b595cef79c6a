/**
 * Where a metadata answer carries its payload (`UPSTREAM_METADATA_KEY`, assumption `metadata_key`). The
 * contract does not describe the payload's shape; the gateway reads it under one key (`data` by default,
 * `metadata` on some upstreams) and passes it through as JSON.
 *
 * Verified on every answer, at the cost of one key lookup: a success without the key but with an object
 * (or array) under another key is another dialect, `UPSTREAM_DIALECT_MISMATCH` naming the key found, never a
 * silent `null` in every `metadata` field. A success with no payload at all is still `null`: the schema
 * always allowed it (an object may have no metadata), and nothing in it says the setting is wrong.
 */
import { UPSTREAM_SETTINGS } from '../../config/upstream-settings.ts';
import { dialectMismatch } from './assumptions.ts';

/** Whether `key` is a value `UPSTREAM_METADATA_KEY` takes: only such a key is offered as the value to set. */
export function isSettableMetadataKey(key: string): boolean {
  return UPSTREAM_SETTINGS.metadataKey.schema.safeParse(key).success;
}

/**
 * The keys of a success answer that hold an object or an array, `status` aside: where a payload could be.
 * Strings (`message`) and numbers are never a payload.
 */
export function payloadKeys(answer: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(answer).filter((key) => {
    const value = answer[key];
    return key !== 'status' && typeof value === 'object' && value !== null;
  });
}

/** The payload of a metadata success `answer` under `key`; `null` when the answer carries none. */
export function metadataPayload(answer: Readonly<Record<string, unknown>>, key: string): unknown {
  if (Object.hasOwn(answer, key)) return answer[key] ?? null;
  const found = payloadKeys(answer);
  if (found.length === 0) return null;
  const [only] = found;
  const named = found
    .slice(0, 4)
    .map((k) => JSON.stringify(k.slice(0, 64)))
    .join(', ');
  const remedy =
    found.length === 1 && only !== undefined && isSettableMetadataKey(only)
      ? `set UPSTREAM_METADATA_KEY=${only}.`
      : 'set UPSTREAM_METADATA_KEY to the key that holds the payload.';
  return failWith(
    `the metadata answer has no "${key}" but ${found.length === 1 ? 'a payload' : 'objects'} under ${named}: ${remedy}`,
  );
}

function failWith(detail: string): never {
  throw dialectMismatch('metadata', 'metadata_key', detail);
}
