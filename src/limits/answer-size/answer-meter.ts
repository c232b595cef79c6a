/**
 * The hard bound on one answer, checked while it is built: the resolvers of the fields that carry the
 * records' values (`data`, `field`, a metadata's value, every typed scalar) count what they return, in
 * characters of JSON (`src/objects/value-bytes.ts`), before graphql-js puts it in the result. Past
 * `MAX_ANSWER_BYTES`, or past what the caller's share of the answers in flight can hold, the request
 * fails with a named error and every later count throws it again, so nothing more is added; the plugin
 * (`answer-size-limit.ts`) then answers that error alone, and the large answer is never serialized.
 *
 * The answer's estimate was taken from the budget at admission; past it, the meter takes more in steps of
 * {@link GROWTH_BYTES} (fewer calls into the budget than one per value).
 */
import type { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors/error-codes.ts';
import { answerBytesBusy, answerShareSpent, limitError } from '../../errors/graphql-errors.ts';
import type { AnswerMeter } from '../../graphql/context.ts';
import type { RecordWeights } from '../../objects/record-weights.ts';
import { isWeighed, valueBytes } from '../../objects/value-bytes.ts';
import type { AnswerBytesBudget, AnswerBytesLease } from './answer-bytes-budget.ts';

/** What the meter takes from the budget at once when the answer passes what it holds. */
export const GROWTH_BYTES = 1_048_576;

/** `MAX_ANSWER_BYTES_EXCEEDED`: the message names the setting and what to change. */
export function answerTooLarge(maxBytes: number, estimated?: number): GraphQLError {
  const what =
    estimated === undefined
      ? `This answer passed ${maxBytes} characters of JSON while it was built`
      : `This answer would hold about ${estimated} characters of JSON`;
  return limitError(
    ErrorCode.MAX_ANSWER_BYTES_EXCEEDED,
    `${what}; at most ${maxBytes} are allowed (MAX_ANSWER_BYTES). Ask for smaller pages (first/last), ` +
      'fewer aliases of `data` and of large fields, or only the fields you need (`field(path:)`, typed fields).',
    'MAX_ANSWER_BYTES',
    maxBytes,
    estimated === undefined ? {} : { estimated, http: { status: 400 } },
  );
}

/** One request's meter (see the file's comment). */
export class RequestAnswerMeter implements AnswerMeter {
  /** Made at the first bytes taken: the usual answer, within its free part, takes none. */
  #lease: AnswerBytesLease | undefined;
  readonly #budget: AnswerBytesBudget;
  readonly #holder: string | undefined;
  readonly #maxBytes: number;
  readonly #weights: RecordWeights;
  #counted = 0;
  /** Characters counted without asking the budget: the free part and what was taken. */
  #allowed: number;
  #failure: GraphQLError | undefined;

  constructor(options: {
    budget: AnswerBytesBudget;
    /** The lease admission took its estimate on, if it took any. */
    lease: AnswerBytesLease | undefined;
    holder: string | undefined;
    maxBytes: number;
    weights: RecordWeights;
    /** What the request may count before it asks the budget again (free part and admission's estimate). */
    allowedBytes: number;
  }) {
    this.#budget = options.budget;
    this.#lease = options.lease;
    this.#holder = options.holder;
    this.#maxBytes = options.maxBytes;
    this.#weights = options.weights;
    this.#allowed = options.allowedBytes;
  }

  /** The error the request failed with, if it did. */
  get failure(): GraphQLError | undefined {
    return this.#failure;
  }

  /** Characters counted so far (tests). */
  get counted(): number {
    return this.#counted;
  }

  chargeRecord(objectName: string, record: object): void {
    if (this.#failure !== undefined) throw this.#failure;
    const fresh = !isWeighed(record);
    const bytes = valueBytes(record);
    // Learnt once per record read, not once per alias that answers it again.
    if (fresh) this.#weights.learn(objectName, bytes);
    this.#count(bytes);
  }

  charge(value: unknown): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#count(valueBytes(value));
  }

  /** Gives the budget back (once the answer is handed on). */
  release(): void {
    this.#lease?.release();
  }

  #count(bytes: number): void {
    this.#counted += bytes;
    if (this.#counted <= this.#allowed) return;
    if (this.#counted > this.#maxBytes) this.#fail(answerTooLarge(this.#maxBytes));
    const needed = this.#counted - this.#allowed;
    const step = Math.min(Math.max(needed, GROWTH_BYTES), this.#maxBytes - this.#allowed);
    // A step first; when the share or the total cannot hold it, what this value needs.
    let taken = step;
    const lease = (this.#lease ??= this.#budget.lease(this.#holder));
    if (lease.take(step) !== undefined) {
      taken = needed;
      const refusal = lease.take(needed);
      if (refusal === 'share') this.#fail(answerShareSpent(this.#budget.shareOf(this.#holder)));
      if (refusal === 'total') this.#fail(answerBytesBusy(this.#budget.totalBytes));
    }
    this.#allowed += taken;
  }

  #fail(error: GraphQLError): never {
    this.#failure = error;
    throw error;
  }
}
