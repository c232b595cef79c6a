import { charsetLabel, type EmulatorCharset } from './charset.ts';
import { jsonText } from './json-text.ts';

/** How a JSONP answer is wrapped (`EMULATOR_WRAPPER`). */
export type WrapperStyle = 'plain' | 'guard';

/** An answer before it is written: JSON text, and the callback that wraps it for JSONP operations. */
export interface Reply {
  statusCode: number;
  json: string;
  /** Set for JSONP answers; plain JSON otherwise. */
  callback?: string | undefined;
  /** A `Set-Cookie` header (the form login's session in the `cookie` dialect). */
  setCookie?: string | undefined;
  /** A body that is no JSON at all (a read quirk's login page or redirect), sent as it is instead of `json`. */
  raw?: { contentType: string; body: string; location?: string | undefined } | undefined;
}

/** What goes on the wire for a reply. */
export interface RenderedReply {
  statusCode: number;
  contentType: string;
  body: string;
  /** A redirect's `Location`. */
  location?: string | undefined;
}

/** JavaScript identifiers only: never reflect anything else into a script. */
const CALLBACK_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/** Whether `value` is a callback name the emulator will wrap an answer in. */
export function isCallbackName(value: unknown): value is string {
  return typeof value === 'string' && CALLBACK_NAME.test(value);
}

/** A plain JSON answer. */
export function jsonReply(payload: object, statusCode = 200): Reply {
  return { statusCode, json: jsonText(payload) };
}

/** A service error: HTTP 200 with `status: error`, wrapped when the operation is JSONP. */
export function serviceError(message: string, callback?: string, errorCode?: string): Reply {
  const payload =
    errorCode === undefined
      ? { status: 'error', message }
      : { status: 'error', message, error_code: errorCode };
  return { statusCode: 200, json: jsonText(payload), callback };
}

/** The HTTP 400 for a JSONP call without a usable callback: plain JSON, the bad name not echoed. */
export function badCallbackReply(): Reply {
  return jsonReply(
    { status: 'error', message: 'callback must be a JavaScript identifier of at most 64 characters' },
    400,
  );
}

/** Wraps `json` in `callback` in the given style. */
export function wrapJsonp(callback: string, json: string, style: WrapperStyle): string {
  return style === 'guard'
    ? `/**/ typeof ${callback} === 'function' && ${callback}(${json});`
    : `${callback}(${json});`;
}

/** Turns a reply into status, content type (labelled with `charset`, encoded when sent) and body. */
export function renderReply(
  reply: Reply,
  style: WrapperStyle,
  charset: EmulatorCharset = 'utf-8',
): RenderedReply {
  const label = `; charset=${charsetLabel(charset)}`;
  if (reply.raw !== undefined) {
    const { contentType, body, location } = reply.raw;
    return { statusCode: reply.statusCode, contentType, body, location };
  }
  if (reply.callback === undefined) {
    return { statusCode: reply.statusCode, contentType: `application/json${label}`, body: reply.json };
  }
  return {
    statusCode: reply.statusCode,
    contentType: `application/javascript${label}`,
    body: wrapJsonp(reply.callback, reply.json, style),
  };
}
