/**
 * Finds a number in a JSON text that a double would change (`number-loss.ts`): once `JSON.parse` has run,
 * `1e-400` is `0` and nobody can tell. The source of every number is read through `JSON.parse`'s reviver
 * (`context.source`, Node 21+), so the parser's own grammar decides what a number is, not a second one.
 *
 * A reviver costs every value a call, so it runs only on texts that could hold a loss at all: one with an
 * exponent, or with a run of 16 digits or more (a double holds every decimal of 15 significant digits),
 * each starting where a JSON value can (after `:`, `[`, `,` or a space): ids such as `64b7f0c2a1e0d000…`
 * inside strings do not count.
 */
import { numberLoss, type NumberLoss } from '../graphql/number-loss.ts';

/** A number a double would change: where it is (keys and indexes from the root), as written, and how. */
export interface JsonNumberLoss {
  path: (string | number)[];
  literal: string;
  loss: NumberLoss;
}

/** A number with an exponent, or a run of 16 digits (a decimal point among them allowed). */
const MIGHT_LOSE = /(?:^|[:[,\s])-?(?:\d+(?:\.\d*)?[eE]|[\d.]{16})/;

/** What `JSON.parse` passes a reviver as its third argument (the source text of a primitive). */
interface ReviverContext {
  source?: string;
}

/** The path of `holder[key]` under `root`: found by walking the parsed value (a refusal only, so rare). */
function pathTo(root: unknown, holder: object, key: string): (string | number)[] | undefined {
  const at = (value: unknown, path: (string | number)[]): (string | number)[] | undefined => {
    if (value === holder) return [...path, Array.isArray(holder) ? Number(key) : key];
    if (typeof value !== 'object' || value === null) return undefined;
    for (const [name, child] of Object.entries(value)) {
      const found = at(child, [...path, Array.isArray(value) ? Number(name) : name]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return at(root, []);
}

/**
 * The first number of `text` (valid JSON) that a double would change, if any. `text` must already have
 * been parsed once (its syntax and keys checked): this parse only reads sources.
 */
export function firstJsonNumberLoss(text: string): JsonNumberLoss | undefined {
  if (!MIGHT_LOSE.test(text)) return undefined;
  let found: { holder: object; key: string; literal: string; loss: NumberLoss } | undefined;
  const root: unknown = JSON.parse(
    text,
    function (this: object, key: string, value: unknown, context?: ReviverContext): unknown {
      if (found === undefined && typeof value === 'number' && context?.source !== undefined) {
        const loss = numberLoss(context.source);
        if (loss !== undefined) found = { holder: this, key, literal: context.source, loss };
      }
      return value;
    },
  );
  if (found === undefined) return undefined;
  // The root itself a number: the holder is the parser's wrapper `{"": value}`.
  const path = found.key === '' && typeof root === 'number' ? [] : pathTo(root, found.holder, found.key);
  return { path: path ?? [found.key], literal: found.literal, loss: found.loss };
}
