/**
 * Reading one object, for the generic and the typed API alike: by id through the request's batching
 * loader, or the first match of a filter, and its metadata, all over the read handle (coalesced, cached
 * per request). Thin on purpose: `object(id)` is the gateway's hottest path, so the reads add no
 * allocation and no await.
 */
import type { AuthenticatedContext } from '../graphql/context.ts';
import type { DataObjectModel, ObjectMetadataModel } from './mappers.ts';
import type { Criterion, UpstreamRecord } from '../upstream/client/types.ts';

/** The object `id` of type `objectName`, or `null` when there is none. */
export function readObject(
  auth: AuthenticatedContext,
  objectName: string,
  id: string,
): Promise<UpstreamRecord | null> {
  return auth.loaders.object(objectName, id);
}

/** The first object of type `objectName` that matches every criterion, or `null` when none does. */
export function findObject(
  auth: AuthenticatedContext,
  objectName: string,
  criteria: Criterion[],
): Promise<UpstreamRecord | null> {
  return auth.loaders.find(objectName, criteria);
}

/** A record as the schema's object types see it: with the type it was read as; `null` stays `null`. */
export function toModel(objectName: string, record: UpstreamRecord | null): DataObjectModel | null {
  return record === null ? null : { objectName, record };
}

/**
 * The upstream's metadata of `objectId` in `category` (`metadata(objectId, category)`); `objectName`, when
 * known, lets that type's cache policy hold.
 */
export function readMetadata(
  auth: AuthenticatedContext,
  objectId: string,
  category: string,
  objectName?: string,
): Promise<unknown> {
  return auth.loaders.metadata(objectId, category, objectName);
}

/**
 * An object's own metadata (category `none`), one loader call per object: what `DataObject.metadata` and
 * every typed `metadata` field answer.
 */
export async function readObjectMetadata(
  auth: AuthenticatedContext,
  object: DataObjectModel,
): Promise<ObjectMetadataModel> {
  const objectId = object.record._id;
  return { objectId, category: 'none', data: await readMetadata(auth, objectId, 'none', object.objectName) };
}
