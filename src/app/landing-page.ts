/** The example operations Apollo Sandbox opens with in development. */

/** A login, then a page of loan types: run the first, paste its token in the `Authorization` header. */
export const EXAMPLE_DOCUMENT = `# 1. Run "Login", copy data.login.token.
# 2. Set the Authorization header below to: Bearer <token>
# 3. Run "LoanTypes".
# Offline? The gateway serves GraphiQL too, with no CDN: /graphiql
mutation Login {
  login(username: "demo", password: "demo-password") {
    token
    expiresAt
    user { id username }
  }
}

query LoanTypes($first: Int = 5, $after: String) {
  objects(objectName: "com.example.LoanType", first: $first, after: $after) {
    totalCount
    nodes { id data }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** Headers pre-filled in Sandbox. */
export const EXAMPLE_HEADERS = { Authorization: 'Bearer <paste data.login.token here>' };
