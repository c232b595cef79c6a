/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/**
 * A condition on one field of a typed object. The conditions of a `where`, and those set in one
 * `FieldFilter`, are combined with AND; numbers and booleans compare as their text (`2.5`, `true`). A
 * condition left out or `null` does not filter. The gateway compiles each into the upstream's only
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
  id?: FieldFilter | null | undefined;
  /** Condition on `loanType` (record path `loanType`). */
  loanType?: FieldFilter | null | undefined;
  /** Condition on `rate` (record path `rate`). */
  rate?: FieldFilter | null | undefined;
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
}>;


export type SignInMutation = { login: { token: string, expiresAt: string, user: { id: string | null, username: string } } };

export type SignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type SignOutMutation = { logout: boolean };

export type LoanTypeFieldsFragment = { id: string, loanType: string, description: string | null, rate: number | null };

export type LoanTypesQueryVariables = Exact<{
  where?: LoanTypeWhere | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type LoanTypesQuery = { loanTypes: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, loanType: string, description: string | null, rate: number | null } | null }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type CreateLoanTypeMutationVariables = Exact<{
  input: LoanTypeInput;
}>;


export type CreateLoanTypeMutation = { saveLoanType: { id: string, message: string | null, object: { id: string, loanType: string, description: string | null, rate: number | null } | null } };

export type UpdateLoanTypeMutationVariables = Exact<{
  id: string;
  patch: LoanTypePatch;
}>;


export type UpdateLoanTypeMutation = { updateLoanType: { id: string, message: string | null, updatedFields: Record<string, unknown>, object: { id: string, loanType: string, description: string | null, rate: number | null } | null } };

export const LoanTypeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<LoanTypeFieldsFragment, unknown>;
export const SignInDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignIn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"username"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"password"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"method"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"LoginMethod"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"username"},"value":{"kind":"Variable","name":{"kind":"Name","value":"username"}}},{"kind":"Argument","name":{"kind":"Name","value":"password"},"value":{"kind":"Variable","name":{"kind":"Name","value":"password"}}},{"kind":"Argument","name":{"kind":"Name","value":"method"},"value":{"kind":"Variable","name":{"kind":"Name","value":"method"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}}]}}]}}]}}]} as unknown as DocumentNode<SignInMutation, SignInMutationVariables>;
export const SignOutDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"logout"}}]}}]} as unknown as DocumentNode<SignOutMutation, SignOutMutationVariables>;
export const LoanTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LoanTypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"where"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypeWhere"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"loanTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"Variable","name":{"kind":"Name","value":"where"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<LoanTypesQuery, LoanTypesQueryVariables>;
export const CreateLoanTypeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateLoanType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"saveLoanType"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"object"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<CreateLoanTypeMutation, CreateLoanTypeMutationVariables>;
export const UpdateLoanTypeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateLoanType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"patch"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoanTypePatch"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateLoanType"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"patch"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"updatedFields"}},{"kind":"Field","name":{"kind":"Name","value":"object"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LoanTypeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LoanTypeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LoanType"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"loanType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]} as unknown as DocumentNode<UpdateLoanTypeMutation, UpdateLoanTypeMutationVariables>;