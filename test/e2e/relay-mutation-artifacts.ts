/**
 * Relay artifacts for the Relay write test, written by hand as the Relay compiler (v20/v21) emits them (see
 * `relay-artifacts.ts` for why by hand) for a screen and the mutation of the README's Relay section:
 *
 * ```graphql
 * query LoanTypeScreenQuery {
 *   loanTypes(first: 1) { nodes { id loanType rate } }
 * }
 * mutation UpdateLoanTypeMutation($id: ID!, $input: LoanTypePatch!) {
 *   updateLoanType(id: $id, input: $input) { upstreamId object { id rate } }
 * }
 * ```
 *
 * A query or mutation without fragments has the same selections in its reader and normalization ASTs.
 */
import { relayRequest } from '../support/relay-request.ts';
import type { ConcreteRequest } from 'relay-runtime';

const scalar = (name: string) =>
  ({ alias: null, args: null, kind: 'ScalarField', name, storageKey: null }) as const;

const screenSelections = [
  {
    alias: null,
    args: [{ kind: 'Literal', name: 'first', value: 1 }],
    concreteType: 'LoanTypeConnection',
    kind: 'LinkedField',
    name: 'loanTypes',
    plural: false,
    selections: [
      {
        alias: null,
        args: null,
        concreteType: 'LoanType',
        kind: 'LinkedField',
        name: 'nodes',
        plural: true,
        selections: [scalar('id'), scalar('loanType'), scalar('rate')],
        storageKey: null,
      },
    ],
    storageKey: 'loanTypes(first:1)',
  },
] as const;

/** `LoanTypeScreenQuery`: what a screen showing a loan type's name and rate reads. */
export const LoanTypeScreenQuery: ConcreteRequest = relayRequest({
  name: 'LoanTypeScreenQuery',
  operationKind: 'query',
  argumentDefinitions: [],
  readerSelections: screenSelections,
  normalizationSelections: screenSelections,
  text: 'query LoanTypeScreenQuery {\n  loanTypes(first: 1) {\n    nodes {\n      id\n      loanType\n      rate\n    }\n  }\n}\n',
});

const mutationArguments = [
  { defaultValue: null, kind: 'LocalArgument', name: 'id' },
  { defaultValue: null, kind: 'LocalArgument', name: 'input' },
] as const;

const mutationSelections = [
  {
    alias: null,
    args: [
      { kind: 'Variable', name: 'id', variableName: 'id' },
      { kind: 'Variable', name: 'input', variableName: 'input' },
    ],
    concreteType: 'LoanTypeUpdatePayload',
    kind: 'LinkedField',
    name: 'updateLoanType',
    plural: false,
    selections: [
      scalar('upstreamId'),
      {
        alias: null,
        args: null,
        concreteType: 'LoanType',
        kind: 'LinkedField',
        name: 'object',
        plural: false,
        selections: [scalar('id'), scalar('rate')],
        storageKey: null,
      },
    ],
    storageKey: null,
  },
] as const;

/** `UpdateLoanTypeMutation`, the README's Relay mutation. */
export const UpdateLoanTypeMutation: ConcreteRequest = relayRequest({
  name: 'UpdateLoanTypeMutation',
  operationKind: 'mutation',
  argumentDefinitions: mutationArguments,
  readerSelections: mutationSelections,
  normalizationSelections: mutationSelections,
  text: 'mutation UpdateLoanTypeMutation(\n  $id: ID!\n  $input: LoanTypePatch!\n) {\n  updateLoanType(id: $id, input: $input) {\n    upstreamId\n    object {\n      id\n      rate\n    }\n  }\n}\n',
});
