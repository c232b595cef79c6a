/**
 * Reading a raw answer the way the gateway does (`src/upstream/client/answers/jsonp.ts`), and naming its wrapper form for
 * the report: which of the forms of docs/design.md ("JSONP wrapper forms") the upstream uses.
 */
import { isUpstreamError } from '../../errors/upstream-error.ts';
import { decodeJsonOrJsonp, decodeJsonp } from '../../upstream/client/answers/jsonp.ts';

/** A decoded answer, or why the gateway could not decode it. */
export type Decoded =
  | { ok: true; value: unknown; form: string }
  | {
      ok: false;
      form: string;
      /** Decodable with another callback name: the upstream does not echo ours. */ otherCallback: boolean;
    };

/** The wrapper form of `text`, in the design's words (`name(JSON);`, `/**\/ name(JSON)`, `typeof guard`, `bare JSON`). */
export function wrapperForm(text: string): string {
  let rest = text;
  const parts: string[] = [];
  if (rest.startsWith('\uFEFF')) {
    parts.push('BOM');
    rest = rest.slice(1);
  }
  rest = rest.trimStart();
  if (rest.startsWith('/**/')) {
    parts.push('/**/');
    rest = rest.slice(4).trimStart();
  }
  if (/^typeof\s/.test(rest)) parts.push("typeof name === 'function' && name(JSON);");
  else if (/^[A-Za-z_$][\w$]*\s*\(/.test(rest))
    parts.push(rest.trimEnd().endsWith(';') ? 'name(JSON);' : 'name(JSON)');
  else if (/^[[{]/.test(rest)) parts.push('bare JSON');
  else parts.push('not JSON or JSONP');
  return parts.join(' ');
}

/** Decodes `text` as the gateway would: wrapped in `callback` when given, else bare or any wrapper (logins). */
export function decodeAsGateway(text: string, callback: string | undefined): Decoded {
  const form = wrapperForm(text);
  try {
    return {
      ok: true,
      value: callback === undefined ? decodeJsonOrJsonp(text) : decodeJsonp(text, callback),
      form,
    };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    if (callback === undefined) return { ok: false, form, otherCallback: false };
    try {
      decodeJsonOrJsonp(text);
      return { ok: false, form, otherCallback: true };
    } catch {
      return { ok: false, form, otherCallback: false };
    }
  }
}
