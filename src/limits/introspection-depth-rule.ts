/**
 * A depth limit for introspection, which GraphQL Armor's depth limit skips (nothing below `__schema` is
 * counted; `__type` is, but like any field, 6 deep with `MAX_DEPTH`'s default). Introspection types nest without end (`__Type.fields.type.fields…`,
 * `ofType.ofType…`), so a small document can ask for an answer many times the size of the schema, at the
 * gateway's expense, wherever introspection is on.
 *
 * The limit is what the standard introspection query needs, the one Apollo Sandbox, GraphiQL and GraphQL
 * Code Generator send (graphql-js's `getIntrospectionQuery`): along any path below `__schema` or `__type`,
 * - at most {@link MAX_OF_TYPE_DEPTH} `ofType` (graphql-js 16.15 asks for 9, earlier releases and Apollo
 *   Sandbox for 7; 9 already spells `[[[[Int!]!]!]!]`);
 * - at most {@link MAX_LIST_DEPTH} of `types`, `fields`, `inputFields`, `interfaces`, `possibleTypes`
 *   (the standard query nests two: `types { fields … }`).
 *
 * graphql-js's own `MaxIntrospectionDepthRule` refuses three nested lists below `types`, without a code and
 * without looking at `ofType`; this rule is stricter on both and says which limit was passed.
 */
import type { ASTVisitor, SelectionSetNode, ValidationContext } from 'graphql';
import { Kind } from 'graphql';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';

/** The most `ofType` fields on one path of an introspection query. */
const MAX_OF_TYPE_DEPTH = 9;

/** The most list fields (`types`, `fields`…) on one path of an introspection query. */
const MAX_LIST_DEPTH = 2;

const LIST_FIELDS: ReadonlySet<string> = new Set([
  'types',
  'fields',
  'inputFields',
  'interfaces',
  'possibleTypes',
]);

/** The deepest nesting of each kind below a selection set (each the maximum over all paths). */
interface Depth {
  ofType: number;
  lists: number;
}

const NONE: Depth = { ofType: 0, lists: 0 };

/** A graphql-js validation rule: refuses introspection nested deeper than the standard query. */
export function introspectionDepthRule(context: ValidationContext): ASTVisitor {
  // Each fragment is measured once: a document of a few hundred tokens can spread fragments into millions
  // of paths, so walking every path would be a cost of its own.
  const fragments = new Map<string, Depth>();

  const measureFragment = (name: string): Depth => {
    const known = fragments.get(name);
    if (known !== undefined) return known;
    // Set before the walk, so that a cycle (refused by graphql-js's own rule) ends here.
    fragments.set(name, NONE);
    const depth = measure(context.getFragment(name)?.selectionSet);
    fragments.set(name, depth);
    return depth;
  };

  const measure = (selectionSet: SelectionSetNode | undefined): Depth => {
    let ofType = 0;
    let lists = 0;
    for (const selection of selectionSet?.selections ?? []) {
      let inner: Depth;
      if (selection.kind === Kind.FRAGMENT_SPREAD) inner = measureFragment(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) inner = measure(selection.selectionSet);
      else {
        const below = measure(selection.selectionSet);
        const name = selection.name.value;
        inner = {
          ofType: below.ofType + (name === 'ofType' ? 1 : 0),
          lists: below.lists + (LIST_FIELDS.has(name) ? 1 : 0),
        };
      }
      ofType = Math.max(ofType, inner.ofType);
      lists = Math.max(lists, inner.lists);
    }
    return { ofType, lists };
  };

  return {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      const depth = measure(node.selectionSet);
      if (depth.ofType > MAX_OF_TYPE_DEPTH || depth.lists > MAX_LIST_DEPTH) {
        const message =
          depth.ofType > MAX_OF_TYPE_DEPTH
            ? `Introspection nests ofType ${depth.ofType} deep; at most ${MAX_OF_TYPE_DEPTH} are allowed.`
            : `Introspection nests ${depth.lists} lists (types, fields, inputFields, interfaces, possibleTypes); at most ${MAX_LIST_DEPTH} are allowed.`;
        context.reportError(limitError(ErrorCode.MAX_INTROSPECTION_DEPTH_EXCEEDED, message));
      }
      // The subtree has been measured: nothing below needs visiting again.
      return false;
    },
  };
}
