/**
 * What resolvers pass around before the schema's types: upstream records with the little context they need.
 * GraphQL Code Generator maps the schema's types to these (`codegen.yml`, `mappers`).
 */
import type { UpstreamError } from '../errors/upstream-error.ts';
import type { UpstreamRecord } from '../upstream/client/types.ts';

/** A `DataObject`: the upstream record and the type it was read as. */
export interface DataObjectModel {
  objectName: string;
  record: UpstreamRecord;
}

/** An `ObjectMetadata`. */
export interface ObjectMetadataModel {
  objectId: string;
  category: string;
  data: unknown;
}

/**
 * What the write's read-back settled (`read-back-write.ts`): the record that shows it, or the named mismatch
 * that stands where the object would (the upstream's reads do not show the write yet).
 */
export type VerifiedReadBack = { record: UpstreamRecord } | { notShown: UpstreamError };

/** A `SavePayload`; `object` is the verified read-back, or read lazily when none was made. */
export interface SavePayloadModel {
  id: string;
  message: string;
  objectName: string;
  readBack?: VerifiedReadBack;
}

/** An `UpdatePayload`; `object` is read back lazily, only when selected. */
export interface UpdatePayloadModel extends SavePayloadModel {
  updatedFields: Record<string, unknown>;
}

/** A `DataObjectEdge`. */
export interface DataObjectEdgeModel {
  cursor: string;
  node: DataObjectModel;
}

/** A `DataObjectConnection`, fully computed by the `objects` resolver. */
export interface DataObjectConnectionModel {
  totalCount: number;
  edges: DataObjectEdgeModel[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}
