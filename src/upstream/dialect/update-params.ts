/**
 * Update's fields as one query parameter each (`UPSTREAM_UPDATE_FIELDS=params`): the dialect of a servlet
 * that reads `request.getParameterMap()` and turns every parameter it does not know into a field. A query
 * parameter is text, so:
 *
 * - a string travels as it is;
 * - a number or a boolean as its JSON text (`5`, `2.5`, `true`), which is also how Java parses one;
 * - an object or an array as its JSON text (`{"city":"Nuenen"}`); such an upstream may store that text;
 * - `null` cannot travel (`x=null` is the text "null", `x=` the empty text): refused, as is a field whose
 *   name is one of the gateway's own parameters (`objectName`, `apiToken`, `callback`, …) or empty.
 *
 * Either refusal is the caller's `BAD_USER_INPUT`, before anything is sent; `saveObject` with `_id` carries
 * any JSON value in its body.
 */
import { invalidInput } from '../../errors/upstream-error.ts';
import { UPDATE_PARAMETERS } from './updated-fields.ts';

/** The fields of `data` as query parameters, or `invalid_input` for what a parameter cannot carry. */
export function toUpdateParams(data: Readonly<Record<string, unknown>>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (name === '' || (UPDATE_PARAMETERS as readonly string[]).includes(name)) {
      throw invalidInput(
        'update',
        `The field name "${name}" cannot be updated on this upstream: its update takes one query parameter per field (UPSTREAM_UPDATE_FIELDS=params) and ${name === '' ? 'a parameter needs a name' : `"${name}" is a parameter of the update itself`}. Write it with saveObject and "_id" in its data.`,
        `data.${name}`,
      );
    }
    if (value === null || value === undefined) {
      throw invalidInput(
        'update',
        `data.${name} is null, which this upstream's update cannot carry: it takes one query parameter per field (UPSTREAM_UPDATE_FIELDS=params), and a parameter is text. Write it with saveObject and "_id" in its data.`,
        `data.${name}`,
      );
    }
    Object.defineProperty(params, name, {
      value: typeof value === 'string' ? value : JSON.stringify(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return params;
}
