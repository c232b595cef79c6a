/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/**
 * A condition on a `String` field of a typed object. The conditions of a `where`, and those set in one
 * `FieldFilter`, are combined with AND (`ID`, `Int`, `Long`, `Float`, `Boolean` and `DateTime` fields take
 * `IDFilter`, `IntFilter`, `LongFilter`, `FloatFilter`, `BooleanFilter` and `DateTimeFilter`: values of their own type).
 * A condition left out or `null` does not filter. The gateway compiles each into the upstream's only
 * operator, `matches`, from escaped text (at most 4000 characters once compiled); under
 * `UPSTREAM_MATCHES=exact` only `equals` (case-sensitive) and `matches` can be honoured. Refusals are
 * `BAD_USER_INPUT` naming the input.
 */
export type FieldFilter = {
  /**
   * Letters of `equals`, `in`, `contains`, `startsWith` and `endsWith` match in any case, character by
   * character (`ǅ`, `ǆ` and `Ǆ`; `ß` and `ẞ`, not `SS`). Not for `matches`.
   */
  caseInsensitive?: boolean | null | undefined;
  /** The value contains this text anywhere, line breaks included. */
  contains?: string | null | undefined;
  /** The value ends with this text. */
  endsWith?: string | null | undefined;
  /** The whole value equals this text; the gateway escapes it for the upstream's `matches`. */
  equals?: string | null | undefined;
  /** The whole value equals one of these texts (at most 100; an empty list matches nothing). */
  in?: Array<string> | null | undefined;
  /**
   * A regular expression the whole value must match (the upstream's `matches`, Java's `String.matches`),
   * for example `Home.*`; refused (`BAD_USER_INPUT`, with the reason) when the gateway's pattern guard
   * finds it risky. For experts: the other conditions need no regular expression.
   */
  matches?: string | null | undefined;
  /** The value starts with this text. */
  startsWith?: string | null | undefined;
};

/**
 * A condition on a `Float` field of a typed object, by value: `2.5` matches the
 * values the upstream stores as 2.5, whatever their spelling (trailing zeros, scientific notation),
 * and no other. Both set: AND. No ranges
 * (`gt`, `lt`): the upstream compares a number's text with a regular expression, which cannot order every
 * spelling of a number safely.
 */
export type FloatFilter = {
  /** The value equals this number. */
  equals?: number | null | undefined;
  /** The value equals one of these numbers (at most 100; an empty list matches nothing). */
  in?: Array<number> | null | undefined;
};

/** A condition on an id (`id`, an `ID` field, a reference's `id`): the whole id, as text. Both set: AND. */
export type IdFilter = {
  /** The id is this one. */
  equals?: string | null | undefined;
  /** The id is one of these (at most 100; an empty list matches nothing). */
  in?: Array<string> | null | undefined;
};

/** The fields of a new LoanType. */
export type LoanTypeInput = {
  /** What the loan is for. */
  description?: string | null | undefined;
  /** Short name, for example `Home Fixed`. */
  loanType: string;
  /** Yearly interest rate, in percent. */
  rate?: number | null | undefined;
};

/** The LoanType fields to change; at least one. */
export type LoanTypePatch = {
  /** What the loan is for. Left out: unchanged; null: cleared. */
  description?: string | null | undefined;
  /** Short name, for example `Home Fixed`. Left out: unchanged. */
  loanType?: string | null | undefined;
  /** Yearly interest rate, in percent. Left out: unchanged; null: cleared. */
  rate?: number | null | undefined;
};

/** Conditions on LoanType fields, combined with AND. */
export type LoanTypeWhere = {
  /** Condition on `description` (record path `description`). */
  description?: FieldFilter | null | undefined;
  /** Condition on `id` (record path `_id`). */
  id?: IdFilter | null | undefined;
  /** Condition on `loanType` (record path `loanType`). */
  loanType?: FieldFilter | null | undefined;
  /** Condition on `rate` (record path `rate`). */
  rate?: FloatFilter | null | undefined;
};

/** Which upstream login to call. */
export type LoginMethod =
  /** The form login (`POST {base_url}/app/login.jsp`); accepts a username or a registered mobile number. */
  | 'FORM'
  /** The JSON login (`POST {api_url}/v1/user/login`). */
  | 'JSON';

export type SignInMutationVariables = Exact<{
  username: string;
  password: string;
  method?: LoginMethod | null | undefined;
  deviceToken?: string | null | undefined;
}>;


export type SignInMutation = { __typename: 'Mutation', login: { __typename: 'LoginPayload', token: string, deviceToken: string, expiresAt: string, user: { __typename: 'User', id: string | null, username: string } } };

export type SignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type SignOutMutation = { __typename: 'Mutation', logout: boolean };

export type LoanTypeFieldsFragment = { __typename: 'LoanType', id: string, loanType: string, description: string | null, rate: number | null };

export type LoanTypesQueryVariables = Exact<{
  where?: LoanTypeWhere | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type LoanTypesQuery = { __typename: 'Query', loanTypes: { __typename: 'LoanTypeConnection', totalCount: number, edges: Array<{ __typename: 'LoanTypeEdge', cursor: string, node: { __typename: 'LoanType', id: string, loanType: string, description: string | null, rate: number | null } | null }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type CreateLoanTypeMutationVariables = Exact<{
  input: LoanTypeInput;
}>;


export type CreateLoanTypeMutation = { __typename: 'Mutation', saveLoanType: { __typename: 'LoanTypeSavePayload', id: string, message: string | null, object: { __typename: 'LoanType', id: string, loanType: string, description: string | null, rate: number | null } | null } };

export type UpdateLoanTypeMutationVariables = Exact<{
  id: string;
  patch: LoanTypePatch;
}>;


export type UpdateLoanTypeMutation = { __typename: 'Mutation', updateLoanType: { __typename: 'LoanTypeUpdatePayload', id: string, message: string | null, updatedFields: Record<string, unknown>, object: { __typename: 'LoanType', id: string, loanType: string, description: string | null, rate: number | null } | null } };

export const LoanTypeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<LoanTypeFieldsFragment, unknown>;
export const SignInDocument = {"__meta__":{"hash":"sha256:ea8faaf788d5fa37f3ff2a3e4583eca5d2142ffb74f03fb25dc39c9a3b415bce"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignIn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"username"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"password"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"method"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"LoginMethod"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceToken"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"username"},"value":{"kind":"Variable","name":{"kind":"Name","value":"username"}}},{"kind":"Argument","name":{"kind":"Name","value":"password"},"value":{"kind":"Variable","name":{"kind":"Name","value":"password"}}},{"kind":"Argument","name":{"kind":"Name","value":"method"},"value":{"kind":"Variable","name":{"kind":"Name","value":"method"}}},{"kind":"Argument","name":{"kind":"Name","value":"deviceToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceToken"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"deviceToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}}]}}]}}]}}]} as unknown as DocumentNode<SignInMutation, SignInMutationVariables>;
export const SignOutDocument = {"__meta__":{"hash":"sha256:43219546eef6b22b6ef7a5f3fb663c284386a72f98b9aae8a22f958c1b2dae79"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"logout"}}]}}]} as unknown as DocumentNode<SignOutMutation, SignOutMutationVariables>;
export const LoanTypesDocument = {"__meta__":{"hash":"sha256:88fc8d50053d276f1625de2e6026e9000ee6012449c9a5567bfc547c76ac61f5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LoanTypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"where"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypeWhere"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"loanTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"Variable","name":{"kind":"Name","value":"where"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<LoanTypesQuery, LoanTypesQueryVariables>;
export const CreateLoanTypeDocument = {"__meta__":{"hash":"sha256:b52648ae1fc199cc00cb50d2026068b32ca521684b2f5127a82da3943a61ec88"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateLoanType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"saveLoanType"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"object"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<CreateLoanTypeMutation, CreateLoanTypeMutationVariables>;
export const UpdateLoanTypeDocument = {"__meta__":{"hash":"sha256:7fd4ce555d7bb8a0995407ae3a5446fe8c22ab47b7a30b1a471c84bf1de1e800"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateLoanType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"patch"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypePatch"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"updateLoanType"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"patch"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"updatedFields"}},{"kind":"Field","name":{"kind":"Name","value":"object"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<UpdateLoanTypeMutation, UpdateLoanTypeMutationVariables>;