// The test clients default to `errorPolicy: 'all'` so a test sees data and errors together; Apollo Client 4
// asks for that default to be declared for its result types.
import '@apollo/client';

declare module '@apollo/client' {
  export namespace ApolloClient {
    export namespace DeclareDefaultOptions {
      interface Query {
        errorPolicy: 'all';
      }
      interface Mutate {
        errorPolicy: 'all';
      }
    }
  }
}
