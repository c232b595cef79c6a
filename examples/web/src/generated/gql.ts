/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation SignIn($username: String!, $password: String!, $method: LoginMethod, $deviceToken: String) {\n    login(username: $username, password: $password, method: $method, deviceToken: $deviceToken) {\n      token\n      deviceToken\n      expiresAt\n      user {\n        id\n        username\n      }\n    }\n  }\n": typeof types.SignInDocument,
    "\n  mutation SignOut {\n    logout\n  }\n": typeof types.SignOutDocument,
    "\n  fragment LoanTypeFields on LoanType {\n    id\n    loanType\n    description\n    rate\n  }\n": typeof types.LoanTypeFieldsFragmentDoc,
    "\n  query LoanTypes($where: LoanTypeWhere, $first: Int, $after: String, $last: Int, $before: String) {\n    loanTypes(where: $where, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...LoanTypeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": typeof types.LoanTypesDocument,
    "\n  mutation CreateLoanType($input: LoanTypeInput!) {\n    saveLoanType(input: $input) {\n      id\n      message\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n": typeof types.CreateLoanTypeDocument,
    "\n  mutation UpdateLoanType($id: ID!, $patch: LoanTypePatch!) {\n    updateLoanType(id: $id, input: $patch) {\n      id\n      message\n      updatedFields\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n": typeof types.UpdateLoanTypeDocument,
};
const documents: Documents = {
    "\n  mutation SignIn($username: String!, $password: String!, $method: LoginMethod, $deviceToken: String) {\n    login(username: $username, password: $password, method: $method, deviceToken: $deviceToken) {\n      token\n      deviceToken\n      expiresAt\n      user {\n        id\n        username\n      }\n    }\n  }\n": types.SignInDocument,
    "\n  mutation SignOut {\n    logout\n  }\n": types.SignOutDocument,
    "\n  fragment LoanTypeFields on LoanType {\n    id\n    loanType\n    description\n    rate\n  }\n": types.LoanTypeFieldsFragmentDoc,
    "\n  query LoanTypes($where: LoanTypeWhere, $first: Int, $after: String, $last: Int, $before: String) {\n    loanTypes(where: $where, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...LoanTypeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": types.LoanTypesDocument,
    "\n  mutation CreateLoanType($input: LoanTypeInput!) {\n    saveLoanType(input: $input) {\n      id\n      message\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n": types.CreateLoanTypeDocument,
    "\n  mutation UpdateLoanType($id: ID!, $patch: LoanTypePatch!) {\n    updateLoanType(id: $id, input: $patch) {\n      id\n      message\n      updatedFields\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n": types.UpdateLoanTypeDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($username: String!, $password: String!, $method: LoginMethod, $deviceToken: String) {\n    login(username: $username, password: $password, method: $method, deviceToken: $deviceToken) {\n      token\n      deviceToken\n      expiresAt\n      user {\n        id\n        username\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SignIn($username: String!, $password: String!, $method: LoginMethod, $deviceToken: String) {\n    login(username: $username, password: $password, method: $method, deviceToken: $deviceToken) {\n      token\n      deviceToken\n      expiresAt\n      user {\n        id\n        username\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOut {\n    logout\n  }\n"): (typeof documents)["\n  mutation SignOut {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment LoanTypeFields on LoanType {\n    id\n    loanType\n    description\n    rate\n  }\n"): (typeof documents)["\n  fragment LoanTypeFields on LoanType {\n    id\n    loanType\n    description\n    rate\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LoanTypes($where: LoanTypeWhere, $first: Int, $after: String, $last: Int, $before: String) {\n    loanTypes(where: $where, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...LoanTypeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query LoanTypes($where: LoanTypeWhere, $first: Int, $after: String, $last: Int, $before: String) {\n    loanTypes(where: $where, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...LoanTypeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateLoanType($input: LoanTypeInput!) {\n    saveLoanType(input: $input) {\n      id\n      message\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateLoanType($input: LoanTypeInput!) {\n    saveLoanType(input: $input) {\n      id\n      message\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateLoanType($id: ID!, $patch: LoanTypePatch!) {\n    updateLoanType(id: $id, input: $patch) {\n      id\n      message\n      updatedFields\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateLoanType($id: ID!, $patch: LoanTypePatch!) {\n    updateLoanType(id: $id, input: $patch) {\n      id\n      message\n      updatedFields\n      object {\n        ...LoanTypeFields\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;