/**
 * Character sets, both ways (`answer_charset`, `request_charset`). Read-only: the charset the answers name,
 * from a raw read. With writes: text with Latin-1 characters and text beyond Latin-1 (Greek, an emoji), saved
 * with the gateway's own body (ASCII-only JSON) and read back raw, then the same Latin-1 text saved raw
 * as UTF-8 bytes declared `charset=UTF-8`, as the form login declares its body: whether the upstream reads a
 * body in the charset it declares. What came back is judged byte by byte, never through a decoder that could
 * hide it.
 */
import type { CheckContext } from '../check-context.ts';
import {
  answerCharsetOf,
  charsetParameterOf,
  decodeIn,
  type AnswerCharset,
} from '../../upstream/dialect/charset/answer-charset.ts';
import { isJsonObject } from '../../upstream/client/answers/response-schemas.ts';
import type { Finding } from './finding.ts';
import { rawGetAll } from './probe-first-page.ts';
import type { RawRead } from '../raw-upstream.ts';
import { asciiJson, JSON_CONTENT_TYPE } from '../../upstream/dialect/charset/request-bodies.ts';
import { decodeAsGateway } from './wrapper-form.ts';
import { readUntil, unseenWrite } from './read-lag/read-until.ts';

/** Latin-1 text, and text Latin-1 lacks (a character past U+FFFF among it). */
export const LATIN1_TEXT = 'Grüße aus Köln';
export const BEYOND_LATIN1_TEXT = 'Ελληνικά 😀';

/** The charsets tried, ISO-8859-1 (the Servlet default) before windows-1252, which reads Latin-1 letters alike. */
const CHARSETS: readonly AnswerCharset[] = ['utf-8', 'iso-8859-1', 'windows-1252'];

/** The read-only half: the charset a getAll answer names (or, unlabelled, looks like). */
export async function probeAnswerCharset(context: CheckContext, objectName: string): Promise<void> {
  const read = await rawGetAll(context, objectName, {
    pageSize: 20,
    pageStart: context.learnt.firstPageStart,
  });
  context.report(answerCharsetFinding(read, context.config.answerCharset));
}

/** The half that writes (only when writes are allowed): text saved and read back, raw. */
export async function probeTextRoundTrip(context: CheckContext, writeObjectName: string): Promise<void> {
  const run = `check-${Date.now().toString(36)}`;
  // The gateway's own body (ASCII-only JSON, declared UTF-8), sent raw: the gateway's client itself refuses
  // text an ISO-8859-1 upstream cannot give back, once it has heard one; the check must see what happens.
  const saved = await rawSave(context, writeObjectName, run, 'text', {
    latin1: LATIN1_TEXT,
    beyond: BEYOND_LATIN1_TEXT,
  });
  if (saved !== undefined) {
    context.report({ topic: 'text round trip', verdict: 'cannot-tell', detail: `the save failed: ${saved}` });
    return;
  }
  const back = await readSaved(context, writeObjectName, `${run}-text`);
  if (back === undefined) return;
  const judged = judgeRoundTrip(back, context.config.answerCharset);
  for (const finding of judged.findings) context.report(finding);
  if (judged.charset === undefined) return;

  // UTF-8 bytes as they are, declared, as the form login declares its body.
  await rawSave(context, writeObjectName, run, 'body', { latin1: LATIN1_TEXT }, JSON.stringify);
  const raw = await readSaved(context, writeObjectName, `${run}-body`);
  if (raw === undefined) return;
  context.report(requestCharsetFinding(raw, judged.charset, context.config.requestCharset));
}

/**
 * A save of `fields` marked `${run}-${mark}`, its body written by `write`, sent raw with the gateway's
 * Content-Type; answers why it failed, or `undefined`.
 */
async function rawSave(
  context: CheckContext,
  objectName: string,
  run: string,
  mark: string,
  fields: Record<string, string>,
  write: (value: unknown) => string = asciiJson,
): Promise<string | undefined> {
  const { applicationCode, organizationCode, sessionCookie } = context.credentials;
  // A cookie session sends no token, as the gateway's client (`client.ts`).
  const apiToken = context.credentials.apiToken === '' ? undefined : context.credentials.apiToken;
  const callback = `cb_${run.replaceAll('-', '_')}_${mark}`;
  const data = { upstreamCheck: `${run}-${mark}`, ...fields };
  const body = write({ objectName, data, apiToken, applicationCode, organizationCode, callback });
  const outcome = await context.raw.post(
    'save',
    'server',
    '/studio/jsonp/save',
    JSON_CONTENT_TYPE,
    body,
    { callback },
    sessionCookie,
  );
  if (!outcome.ok) return outcome.error.message;
  const decoded = decodeAsGateway(outcome.text, callback);
  if (!decoded.ok) return `the answer is not readable (${decoded.form})`;
  const status = isJsonObject(decoded.value) ? decoded.value.status : undefined;
  if (status === 'success') return undefined;
  const message = isJsonObject(decoded.value) ? decoded.value.message : undefined;
  return `status ${JSON.stringify(status)}: ${JSON.stringify(typeof message === 'string' ? message.slice(0, 120) : '')}`;
}

/**
 * {@link readBack} again until the record is there in some charset (a lagging replica answers none at first);
 * `undefined`, the `text round trip` row said, when it never is: missing is not a charset.
 */
async function readSaved(
  context: CheckContext,
  objectName: string,
  marker: string,
): Promise<RawRead | undefined> {
  const back = await readUntil(
    context,
    () => readBack(context, objectName, marker),
    (read) => CHARSETS.some((charset) => recordIn(read, charset) !== undefined),
  );
  if (back.shown) return back.value;
  context.report({
    topic: 'text round trip',
    verdict: 'cannot-tell',
    detail: unseenWrite('the text saved'),
  });
  return undefined;
}

/** The saved record marked `marker`, read back raw (getObject, the gateway's own request). */
function readBack(context: CheckContext, objectName: string, marker: string): Promise<RawRead> {
  const filterCommand = JSON.stringify({
    criteria: [{ fieldName: 'upstreamCheck', operator: 'matches', value: marker }],
  });
  return context.raw.read('getObject', context.credentials, '/studio/jsonp/getObject/', {
    objectName,
    filterCommand,
  });
}

/** The charset the answer names, and whether its bytes are in it. */
export function answerCharsetFinding(read: RawRead, fallback: AnswerCharset): Finding {
  const topic = 'answer charset';
  if (!read.outcome.ok)
    return { topic, verdict: 'cannot-tell', detail: `the read failed: ${read.outcome.error.message}` };
  const { bytes, contentType } = read.outcome;
  const label = charsetParameterOf(contentType);
  const said = `Content-Type ${JSON.stringify((contentType ?? '(none)').slice(0, 80))}`;
  if (label !== undefined) {
    const charset = answerCharsetOf(label);
    if (charset === undefined) {
      return { topic, verdict: 'cannot-serve', detail: `${said}: a charset the gateway cannot decode` };
    }
    if (decodes(bytes, charset) === undefined) {
      return {
        topic,
        verdict: 'cannot-serve',
        detail: `${said}, but the bytes are not ${charset}: mislabelled`,
      };
    }
    return { topic, verdict: 'as-assumed', detail: `${said}: decoded by the charset it names` };
  }
  if (bytes.every((byte) => byte < 0x80)) {
    return {
      topic,
      verdict: 'cannot-tell',
      detail: `${said} names no charset and the sample is ASCII: with --allow-writes the check saves accented text`,
    };
  }
  // Text beyond ASCII that is valid UTF-8 is UTF-8 (Latin-1 text almost never is); otherwise a single-byte one.
  const likely =
    decodes(bytes, 'utf-8') !== undefined ? 'utf-8' : bytes.some(isC1) ? 'windows-1252' : 'iso-8859-1';
  if ((likely === 'utf-8') === (fallback === 'utf-8')) {
    return {
      topic,
      verdict: 'as-assumed',
      detail: `${said} names no charset; the sample reads as ${fallback}`,
    };
  }
  return {
    topic,
    verdict: 'differs',
    detail: `${said} names no charset; the sample is ${likely === 'utf-8' ? 'UTF-8' : 'not UTF-8'}`,
    settings: { UPSTREAM_ANSWER_CHARSET: likely },
  };
}

/** Bytes 0x80–0x9F: C1 controls in ISO-8859-1, the curly quotes, dashes and € of windows-1252. */
const isC1 = (byte: number): boolean => byte >= 0x80 && byte <= 0x9f;

function decodes(bytes: Uint8Array, charset: AnswerCharset): string | undefined {
  try {
    return decodeIn(bytes, charset);
  } catch {
    return undefined;
  }
}

/** The fields of the one record of a raw getObject answer decoded in `charset`, if it reads. */
function recordIn(read: RawRead, charset: AnswerCharset): Record<string, unknown> | undefined {
  if (!read.outcome.ok) return undefined;
  const text = decodes(read.outcome.bytes, charset);
  const decoded = text === undefined ? undefined : decodeAsGateway(text, read.callback);
  if (decoded?.ok !== true || !isJsonObject(decoded.value) || !Array.isArray(decoded.value.data))
    return undefined;
  const [record] = decoded.value.data as unknown[];
  return isJsonObject(record) ? record : undefined;
}

/**
 * The two round-trip findings, and the charset the answer is really in (`undefined` when none reads the
 * Latin-1 text back). The gateway decodes by the label, or by `fallback` when there is none.
 */
export function judgeRoundTrip(
  read: RawRead,
  fallback: AnswerCharset,
): { findings: Finding[]; charset: AnswerCharset | undefined } {
  const latinTopic = 'Latin-1 text';
  if (!read.outcome.ok) {
    const detail = `the read back failed: ${read.outcome.error.message}`;
    return { findings: [{ topic: latinTopic, verdict: 'cannot-tell', detail }], charset: undefined };
  }
  const label = charsetParameterOf(read.outcome.contentType);
  const named = label === undefined ? fallback : answerCharsetOf(label);
  const reads = (charset: AnswerCharset) => recordIn(read, charset)?.latin1 === LATIN1_TEXT;
  const charset = named !== undefined && reads(named) ? named : CHARSETS.find(reads);
  const findings: Finding[] = [];
  if (charset === undefined) {
    const seen = named === undefined ? undefined : recordIn(read, named)?.latin1;
    const detail = `${JSON.stringify(LATIN1_TEXT)} came back as ${JSON.stringify(seen ?? '(unreadable)').slice(0, 80)}`;
    findings.push({ topic: latinTopic, verdict: 'cannot-serve', detail });
    return { findings, charset };
  }
  if (charset === named) {
    const how = label === undefined ? `no charset named, read as ${fallback}` : `labelled charset=${label}`;
    findings.push({
      topic: latinTopic,
      verdict: 'as-assumed',
      detail: `${JSON.stringify(LATIN1_TEXT)} reads back (${how})`,
    });
  } else if (label === undefined) {
    findings.push({
      topic: latinTopic,
      verdict: 'differs',
      detail: `answers name no charset and are ${charset}, not ${fallback}`,
      settings: { UPSTREAM_ANSWER_CHARSET: charset },
    });
  } else {
    findings.push({
      topic: latinTopic,
      verdict: 'cannot-serve',
      detail: `answers are labelled charset=${label} but are ${charset}: the upstream mislabels them`,
    });
  }
  const beyond = recordIn(read, charset)?.beyond;
  const beyondTopic = 'non-Latin-1 text';
  if (beyond === BEYOND_LATIN1_TEXT) {
    findings.push({
      topic: beyondTopic,
      verdict: 'as-assumed',
      detail: `${JSON.stringify(BEYOND_LATIN1_TEXT)} reads back`,
    });
  } else {
    const lost = typeof beyond === 'string' && /^[? ]+$/.test(beyond);
    findings.push({
      topic: beyondTopic,
      verdict: 'cannot-serve',
      detail: `${JSON.stringify(BEYOND_LATIN1_TEXT)} came back as ${JSON.stringify(beyond ?? '(nothing)').slice(0, 60)}${
        lost
          ? `: the upstream answers in ${charset} and cannot give back text outside it (it may or may not store it); no setting changes that`
          : ''
      }`,
    });
  }
  return { findings, charset };
}

/** Whether the upstream read a raw UTF-8 body declared `charset=UTF-8` in UTF-8, or as ISO-8859-1 regardless. */
export function requestCharsetFinding(
  read: RawRead,
  charset: AnswerCharset,
  current: 'utf-8' | 'iso-8859-1',
): Finding {
  const topic = 'request charset';
  const value = recordIn(read, charset)?.latin1;
  if (value === LATIN1_TEXT) {
    return {
      topic,
      verdict: 'as-assumed',
      detail: `a UTF-8 body declared charset=UTF-8 is read in UTF-8 (UPSTREAM_REQUEST_CHARSET=${current} works)`,
    };
  }
  // The UTF-8 bytes taken one by one for characters, as the answer's charset spells them.
  if (value === decodeIn(Buffer.from(LATIN1_TEXT, 'utf8'), charset === 'utf-8' ? 'iso-8859-1' : charset)) {
    return {
      topic,
      verdict: 'differs',
      detail:
        'bodies are read as ISO-8859-1 whatever charset they declare: the form login must send Latin-1 (JSON bodies are ASCII-only and unaffected)',
      settings: { UPSTREAM_REQUEST_CHARSET: 'iso-8859-1' },
    };
  }
  return {
    topic,
    verdict: 'cannot-tell',
    detail: `a raw UTF-8 save came back as ${JSON.stringify(value ?? '(nothing)').slice(0, 60)}`,
  };
}
