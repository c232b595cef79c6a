/**
 * `RELAY_NODE=true`, the resolver side: global ids out (`id`), upstream ids kept (`upstreamId`, the write
 * payloads' included), `node(id:)` and `nodes(ids:)` read through the request's batching loader (the ids of
 * one type in one tick cost one upstream call), and the typed `<type>(id:)` and `update<Type>(id:)` take the
 * global ids their `id` fields answer. A global id this gateway did not write is `BAD_USER_INPUT` before any
 * upstream call.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { AuthenticatedContext, GraphQLContext } from '../graphql/context.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { ErrorCode } from '../errors/error-codes.ts';
import { badUserInput, limitError } from '../errors/graphql-errors.ts';
import { withIndefiniteArticle } from '../errors/indefinite-article.ts';
import { readObject } from '../objects/read-object.ts';
import { idsPerBatch } from '../upstream/batching/loaders.ts';
import type { DataObjectModel, SavePayloadModel } from '../objects/mappers.ts';
import type { ExecutableResolvers } from './build-typed-resolvers.ts';
import { decodeGlobalId, encodeGlobalId, GlobalIdError } from './global-id.ts';
import type { ObjectTypeSpec } from './spec/object-type-spec.ts';
import { GENERIC_NODE_TYPE, MAX_NODE_IDS, UPSTREAM_ID_FIELD } from './relay-node-sdl.ts';

type Args = Record<string, unknown>;
type Resolver<Parent> = GraphQLFieldResolver<Parent, GraphQLContext, Args>;

/** What a global id names: the GraphQL type, and the upstream object to read. */
export interface NodeTarget {
  nodeType: string;
  objectName: string;
  id: string;
}

/** An object answered as a `Node`: with the GraphQL type it is of. */
interface NodeModel extends DataObjectModel {
  nodeType: string;
}

/** The global id of a typed object (`[typeName, _id]`) or of a `DataObject` (`[DataObject, objectName, _id]`). */
function globalIdOf(nodeType: string, objectName: string, id: string): string {
  return encodeGlobalId(nodeType === GENERIC_NODE_TYPE ? [nodeType, objectName, id] : [nodeType, id]);
}

/** What a global id names. @throws GlobalIdError when it names nothing of this schema. */
export function nodeTargetOf(globalId: string, byType: ReadonlyMap<string, ObjectTypeSpec>): NodeTarget {
  const [nodeType = '', ...rest] = decodeGlobalId(globalId);
  const spec = byType.get(nodeType);
  const [objectName, id] = nodeType === GENERIC_NODE_TYPE ? rest : [spec?.objectName, ...rest];
  if ((spec === undefined && nodeType !== GENERIC_NODE_TYPE) || rest.length !== (spec ? 1 : 2)) {
    throw new GlobalIdError('it names a type this schema does not have');
  }
  if (objectName === undefined || objectName === '' || id === undefined || id === '') {
    throw new GlobalIdError('it names no object name or no id');
  }
  return { nodeType, objectName, id };
}

/**
 * {@link nodeTargetOf} for an argument: a refusal is `BAD_USER_INPUT` naming the argument (`shown`, e.g.
 * `ids[3]`, in the message).
 */
export function argumentTarget(
  value: unknown,
  argumentName: string,
  byType: ReadonlyMap<string, ObjectTypeSpec>,
  shown: string = argumentName,
): NodeTarget {
  try {
    return nodeTargetOf(String(value), byType);
  } catch (error) {
    if (!(error instanceof GlobalIdError)) throw error;
    throw badUserInput(
      `"${shown}" is not a global id of this gateway (${error.message}): it takes a global id (an object's \`id\`), not an upstream id (\`upstreamId\`).`,
      argumentName,
    );
  }
}

async function readNode(auth: AuthenticatedContext, target: NodeTarget): Promise<NodeModel | null> {
  const record = await readObject(auth, target.objectName, target.id);
  return record === null ? null : { objectName: target.objectName, record, nodeType: target.nodeType };
}

/**
 * Refuses, before any read, ids whose reads would pass `MAX_UPSTREAM_CALLS_PER_REQUEST`: one call per batch
 * of an object type's ids (`idsPerBatch`: up to 100, fewer under `UPSTREAM_MAX_PAGE_SIZE`), one per id under
 * `UPSTREAM_MATCHES=exact`. The ids are the caller's to choose, so the `DataObject` ids of 60 object names
 * would otherwise cost 50 calls first.
 */
function refuseFanOut(targets: readonly NodeTarget[], config: GatewayConfig): void {
  let calls = targets.length;
  if (config.matchesMode !== 'exact') {
    const perType = new Map<string, number>();
    for (const { objectName } of targets) perType.set(objectName, (perType.get(objectName) ?? 0) + 1);
    const batch = idsPerBatch(config.upstreamMaxPageSize);
    calls = 0;
    for (const count of perType.values()) calls += Math.ceil(count / batch);
  }
  const max = config.maxUpstreamCallsPerRequest;
  if (calls <= max) return;
  throw limitError(
    ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
    `These ids would make ${String(calls)} upstream calls (one per object type and batch of ids); at most ${String(max)} are allowed per request.`,
    'MAX_UPSTREAM_CALLS_PER_REQUEST',
    max,
    { estimated: calls },
  );
}

/** A typed resolver of the field `field` of `type`, as `buildTypedResolvers` made it. */
function typedResolver(typed: ExecutableResolvers, type: string, field: string): Resolver<unknown> {
  const resolver = (typed as Record<string, Record<string, unknown> | undefined>)[type]?.[field];
  if (typeof resolver !== 'function') throw new Error(`no typed resolver ${type}.${field}`);
  return resolver as Resolver<unknown>;
}

/** A write payload's `upstreamId`: the written object's `_id` (its global id is `object { id }`). */
const payloadUpstreamId = (payload: SavePayloadModel): string => payload.id;

/** The resolvers `RELAY_NODE` adds or replaces; merge them after the typed and generic ones. */
export function relayNodeResolvers(
  specs: readonly ObjectTypeSpec[],
  typed: ExecutableResolvers,
): ExecutableResolvers {
  const byType = new Map(specs.map((spec) => [spec.typeName, spec]));
  const node: Resolver<unknown> = async (_parent, args, ctx) => {
    const auth = ctx.requireSession();
    return readNode(auth, argumentTarget(args.id, 'id', byType));
  };
  const nodes: Resolver<unknown> = async (_parent, args, ctx) => {
    const auth = ctx.requireSession();
    const ids = Array.isArray(args.ids) ? (args.ids as unknown[]) : [];
    if (ids.length > MAX_NODE_IDS) {
      throw badUserInput(`"ids" holds ${String(ids.length)} ids; at most ${String(MAX_NODE_IDS)}.`, 'ids');
    }
    // Every id is checked before any read: one bad id costs no upstream call.
    const targets = ids.map((id, i) => argumentTarget(id, 'ids', byType, `ids[${String(i)}]`));
    refuseFanOut(targets, ctx.services.config);
    const settled = await Promise.allSettled(targets.map((target) => readNode(auth, target)));
    // A failed read fails its own item (an Error in a list is that item's error), not the others.
    return settled.map((result) =>
      result.status === 'fulfilled'
        ? result.value
        : result.reason instanceof Error
          ? result.reason
          : new Error(String(result.reason)),
    );
  };
  const upstreamId: Resolver<DataObjectModel> = (object) => object.record._id;
  const query: Record<string, Resolver<unknown>> = { node, nodes };
  const mutation: Record<string, Resolver<unknown>> = {};
  const resolvers: Record<string, Record<string, unknown>> = {
    Node: { __resolveType: (object: NodeModel) => object.nodeType },
    [GENERIC_NODE_TYPE]: {
      id: (object: DataObjectModel) => globalIdOf(GENERIC_NODE_TYPE, object.objectName, object.record._id),
      [UPSTREAM_ID_FIELD]: upstreamId,
    },
    SavePayload: { [UPSTREAM_ID_FIELD]: payloadUpstreamId },
    UpdatePayload: { [UPSTREAM_ID_FIELD]: payloadUpstreamId },
    Query: query,
    Mutation: mutation,
  };
  for (const spec of specs) {
    const { typeName, names } = spec;
    const own = (value: unknown): string => {
      const target = argumentTarget(value, 'id', byType);
      if (target.nodeType !== typeName) {
        const [theirs, ours] = [withIndefiniteArticle(target.nodeType), withIndefiniteArticle(typeName)];
        throw badUserInput(`"id" is the global id of ${theirs}, not of ${ours}.`, 'id');
      }
      return target.id;
    };
    const single = typedResolver(typed, 'Query', names.single);
    const update = typedResolver(typed, 'Mutation', names.update);
    resolvers[typeName] = {
      id: (object: DataObjectModel) => globalIdOf(typeName, spec.objectName, object.record._id),
      [UPSTREAM_ID_FIELD]: upstreamId,
    };
    resolvers[names.savePayload] = { [UPSTREAM_ID_FIELD]: payloadUpstreamId };
    resolvers[names.updatePayload] = { [UPSTREAM_ID_FIELD]: payloadUpstreamId };
    query[names.single] = (parent, args, ctx, info) =>
      single(parent, { ...args, id: own(args.id) }, ctx, info);
    mutation[names.update] = (parent, args, ctx, info) =>
      update(parent, { ...args, id: own(args.id) }, ctx, info);
  }
  return resolvers as ExecutableResolvers;
}
