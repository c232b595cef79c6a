/** The typed-API operations the end-to-end tests send, typed by hand after the generated schema. */
import { gql, type TypedDocumentNode } from '@apollo/client';

/** `LoanType` as selected below. */
export interface LoanTypeResult {
  id: string;
  loanType: string;
  description: string | null;
  rate: number | null;
}
/** `Customer` as selected below. */
export interface CustomerResult {
  id: string;
  name: string;
  email: string | null;
  mobile: string | null;
  city: string | null;
  country: string | null;
}
/** `Order` as selected below. */
export interface OrderResult {
  id: string;
  number: string;
  total: number | null;
  status: string | null;
  customer: { id: string; name: string } | null;
}
interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}
/** A typed connection as selected below. */
export interface Page<T> {
  totalCount: number;
  edges: { cursor: string; node: { id: string } | null }[];
  nodes: (T | null)[];
  pageInfo: PageInfo;
}
type Filter = {
  matches?: string;
  equals?: string;
  in?: string[];
  contains?: string;
  startsWith?: string;
  endsWith?: string;
  caseInsensitive?: boolean;
} | null;
/** `IDFilter`, `IntFilter`, `FloatFilter`, `BooleanFilter`: operands of the field's own type. */
type ValueFilter<T> = { equals?: T; in?: T[] } | null;
interface PageVariables<W> {
  where?: W;
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

const LOAN_FIELDS = 'id loanType description rate';
const CUSTOMER_FIELDS = 'id name email mobile city country';
const PAGE =
  'totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

export const LoanTypeDocument: TypedDocumentNode<{ loanType: LoanTypeResult | null }, { id: string }> = gql`
  query LoanType($id: ID!) { loanType(id: $id) { ${LOAN_FIELDS} } }
`;

export const LoanTypesDocument: TypedDocumentNode<
  { loanTypes: Page<LoanTypeResult> },
  PageVariables<{
    id?: ValueFilter<string>;
    loanType?: Filter;
    description?: Filter;
    rate?: ValueFilter<number>;
  }>
> = gql`
  query LoanTypes($where: LoanTypeWhere, $first: Int, $after: String, $last: Int, $before: String) {
    loanTypes(where: $where, first: $first, after: $after, last: $last, before: $before) {
      ${PAGE}
      nodes { ${LOAN_FIELDS} }
    }
  }
`;

export const CustomerDocument: TypedDocumentNode<{ customer: CustomerResult | null }, { id: string }> = gql`
  query Customer($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }
`;

export const CustomersDocument: TypedDocumentNode<
  { customers: Page<CustomerResult> },
  PageVariables<{ country?: Filter; name?: Filter }>
> = gql`
  query Customers($where: CustomerWhere, $first: Int, $after: String) {
    customers(where: $where, first: $first, after: $after) {
      ${PAGE}
      nodes { ${CUSTOMER_FIELDS} }
    }
  }
`;

export const OrdersDocument: TypedDocumentNode<
  { orders: Page<OrderResult> },
  PageVariables<{ status?: Filter; customer?: { id?: ValueFilter<string> } | null; number?: Filter }>
> = gql`
  query Orders($where: OrderWhere, $first: Int, $after: String) {
    orders(where: $where, first: $first, after: $after) {
      ${PAGE}
      nodes { id number total status customer { id name } }
    }
  }
`;

export const OrderDocument: TypedDocumentNode<{ order: OrderResult | null }, { id: string }> = gql`
  query Order($id: ID!) {
    order(id: $id) {
      id
      number
      total
      status
      customer {
        id
        name
      }
    }
  }
`;

export const SaveLoanTypeDocument: TypedDocumentNode<
  { saveLoanType: { id: string; message: string | null; object: LoanTypeResult | null } },
  { input: Record<string, unknown> }
> = gql`
  mutation SaveLoanType($input: LoanTypeInput!) {
    saveLoanType(input: $input) { id message object { ${LOAN_FIELDS} } }
  }
`;

export const UpdateLoanTypeDocument: TypedDocumentNode<
  {
    updateLoanType: {
      id: string;
      message: string | null;
      updatedFields: Record<string, unknown>;
      object: LoanTypeResult | null;
    };
  },
  { id: string; input: Record<string, unknown> }
> = gql`
  mutation UpdateLoanType($id: ID!, $input: LoanTypePatch!) {
    updateLoanType(id: $id, input: $input) { id message updatedFields object { ${LOAN_FIELDS} } }
  }
`;

export const SaveOrderDocument: TypedDocumentNode<
  { saveOrder: { id: string; object: OrderResult | null } },
  { input: Record<string, unknown> }
> = gql`
  mutation SaveOrder($input: OrderInput!) {
    saveOrder(input: $input) {
      id
      object {
        id
        number
        total
        status
        customer {
          id
          name
        }
      }
    }
  }
`;

export const UpdateCustomerDocument: TypedDocumentNode<
  { updateCustomer: { id: string; updatedFields: Record<string, unknown>; object: CustomerResult | null } },
  { id: string; input: Record<string, unknown> }
> = gql`
  mutation UpdateCustomer($id: ID!, $input: CustomerPatch!) {
    updateCustomer(id: $id, input: $input) { id updatedFields object { ${CUSTOMER_FIELDS} } }
  }
`;

/** A result without the `__typename` fields Apollo Client adds, for exact comparisons. */
export function withoutTypename<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === '__typename' ? undefined : v))) as T;
}
