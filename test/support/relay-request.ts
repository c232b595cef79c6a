/**
 * The frame of a request artifact as the Relay compiler emits it (`ConcreteRequest`): the reader AST
 * (`fragment`), the normalization AST (`operation`) and `params`, named alike throughout. The hand-written
 * artifacts of `test/e2e/relay-artifacts.ts` and `relay-mutation-artifacts.ts` differ only in what this takes.
 */
import type {
  ConcreteRequest,
  NormalizationLocalArgumentDefinition,
  NormalizationSelection,
  ReaderSelection,
} from 'relay-runtime';

/** What one request artifact says of its own. */
export interface RelayRequestParts {
  name: string;
  operationKind: 'query' | 'mutation';
  /** `LocalArgument`s of its variables, the same in both ASTs. */
  argumentDefinitions: readonly NormalizationLocalArgumentDefinition[];
  /** The reader AST's selections (fragment spreads stay spreads). */
  readerSelections: readonly ReaderSelection[];
  /** The normalization AST's selections (fragments inlined; without fragments, the reader's again). */
  normalizationSelections: readonly NormalizationSelection[];
  /** The document the compiler prints, fragments included. */
  text: string;
}

export function relayRequest(parts: RelayRequestParts): ConcreteRequest {
  const { name, operationKind, argumentDefinitions, readerSelections, normalizationSelections, text } = parts;
  return {
    fragment: {
      argumentDefinitions: [...argumentDefinitions],
      kind: 'Fragment',
      metadata: null,
      name,
      selections: [...readerSelections],
      type: operationKind === 'query' ? 'Query' : 'Mutation',
      abstractKey: null,
    },
    kind: 'Request',
    operation: {
      argumentDefinitions: [...argumentDefinitions],
      kind: 'Operation',
      name,
      selections: [...normalizationSelections],
    },
    params: { cacheID: name, id: null, metadata: {}, name, operationKind, text },
  };
}
