/**
 * A page of loan types filtered by `$name`, for the large-answer tests: distinct names make distinct upstream
 * reads (identical ones would be coalesced into one).
 */
export const FILTERED_LOAN_PAGE = `query Page($name: String!) {
  objects(objectName: "com.example.LoanType", first: 10, filter: { criteria: [{ fieldName: "name", operator: equals, value: $name }] }) { totalCount nodes { id } }
}`;
