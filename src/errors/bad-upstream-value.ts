/**
 * The error of a typed field whose upstream value does not fit the declared type. It fails that field only:
 * GraphQL answers `null` there (or at the nearest nullable parent when the field is non-null) and keeps
 * every other field.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from './error-codes.ts';

/** Where the bad value is and what it is. */
export interface BadValueDetail {
  /** The GraphQL type and field, `LoanType` and `rate`. */
  typeName: string;
  field: string;
  /** The upstream object's `_id`. */
  objectId: string;
  /** The dotted record path the field reads. */
  recordPath: string;
  /** The declared GraphQL type, `Float`. */
  expected: string;
  /** What the record holds instead, `the string "abc"`. */
  received: string;
}

/** `LoanType.rate: object 65… holds the string "abc" at "rate", where the schema declares Float.` */
export function badUpstreamValue(detail: BadValueDetail): GraphQLError {
  const { typeName, field, objectId, recordPath, expected, received } = detail;
  return new GraphQLError(
    `${typeName}.${field}: object ${objectId} holds ${received} at "${recordPath}", where the schema declares ${expected}.`,
    {
      extensions: {
        code: ErrorCode.BAD_UPSTREAM_VALUE,
        typeName,
        field,
        objectId,
        recordPath,
        expected,
        received,
      },
    },
  );
}
