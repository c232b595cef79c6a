/**
 * getObject and metadata (docs/design.md, "getObject's answer", "metadata payload"): getObject read through the
 * gateway's own client (the shapes it accepts are the shapes checked); metadata read raw and decoded as the
 * gateway decodes it, so that the key its payload sits under is found whatever `UPSTREAM_METADATA_KEY` says.
 */
import { cannotTell, type Finding } from './finding.ts';
import { isJsonObject } from '../../upstream/client/answers/response-schemas.ts';
import { isSettableMetadataKey, payloadKeys } from '../../upstream/dialect/metadata-payload.ts';
import { UPSTREAM_SETTINGS } from '../../config/upstream-settings.ts';
import { decodeAsGateway } from './wrapper-form.ts';
import { isUpstreamError } from '../../errors/upstream-error.ts';
import { escapeJavaRegex } from '../../upstream/pattern-guard/regex-escape.ts';
import type { CheckContext } from '../check-context.ts';
import { matches } from './filter-probe.ts';

/** The pattern matching exactly `id` in the mode found (plain equality sends the id itself). */
export function idPatternFor(context: Pick<CheckContext, 'config' | 'learnt'>, id: string): string {
  return (context.learnt.matches ?? context.config.matchesMode) === 'exact' ? id : escapeJavaRegex(id);
}

/** Runs getObject and metadata on the record the matches probes aimed at (2 reads). */
export async function probeObjects(context: CheckContext, objectName: string): Promise<void> {
  const record = context.learnt.target ?? context.learnt.sample[0];
  if (record === undefined) {
    context.report(cannotTell('getObject', 'no record to read'));
    context.report(cannotTell('metadata', 'no record to read'));
    return;
  }
  const pattern = idPatternFor(context, record._id);
  const verdict = await context.guard.check(pattern);
  if (!verdict.ok) {
    context.report(cannotTell('getObject', 'the id pattern was refused by the guard'));
  } else {
    try {
      const found = await context.client.getObject(context.credentials, objectName, [
        matches('_id', pattern),
      ]);
      context.report(
        found?._id === record._id
          ? { topic: 'getObject', verdict: 'as-assumed', detail: '{status, data: [the record]}' }
          : {
              topic: 'getObject',
              verdict: 'cannot-tell',
              detail: 'answered the read shape without the record',
            },
      );
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      context.report({ topic: 'getObject', verdict: 'cannot-serve', detail: error.message });
    }
  }
  context.report(await probeMetadata(context, record._id));
}

const TOPIC = 'metadata';

/** What a payload is, for the report. */
function shapeOf(data: unknown): string {
  if (Array.isArray(data)) return 'an array';
  if (isJsonObject(data)) return `an object with ${Object.keys(data).slice(0, 8).join(', ') || 'no fields'}`;
  return data === null ? 'null' : typeof data;
}

/** The metadata of `id` (1 raw read): the key its payload sits under (`UPSTREAM_METADATA_KEY`), and its shape. */
async function probeMetadata(context: CheckContext, id: string): Promise<Finding> {
  const path = `/studio/jsonp/metadata/get/${encodeURIComponent(id)}/`;
  const read = await context.raw.read('metadata', context.credentials, path, { category: 'none' });
  if (!read.outcome.ok) {
    const { error } = read.outcome;
    const verdict =
      error.blame === 'upstream_health' || error.blame === 'gateway' ? 'cannot-serve' : 'cannot-tell';
    return { topic: TOPIC, verdict, detail: error.message };
  }
  const decoded = decodeAsGateway(read.outcome.text, read.callback);
  if (!decoded.ok)
    return { topic: TOPIC, verdict: 'cannot-serve', detail: `not decodable (${decoded.form})` };
  const answer = decoded.value;
  if (!isJsonObject(answer) || (answer.status !== 'success' && answer.status !== 'error')) {
    return {
      topic: TOPIC,
      verdict: 'cannot-serve',
      detail: 'answered neither {status: "success"} nor {status: "error"}',
    };
  }
  if (answer.status === 'error')
    return cannotTell(TOPIC, 'answered status: error for a record read a moment ago');
  const key = context.config.metadataKey;
  if (Object.hasOwn(answer, key)) {
    return {
      topic: TOPIC,
      verdict: 'as-assumed',
      detail: `{status, ${key}}: ${key} is ${shapeOf(answer[key])}, passed through as JSON`,
      // The default is written only when it changes a setting (the settings a default upstream needs stay few).
      ...(key === DEFAULT_METADATA_KEY ? {} : { settings: { UPSTREAM_METADATA_KEY: key } }),
    };
  }
  const found = payloadKeys(answer);
  const [only] = found;
  if (found.length === 1 && only !== undefined && isSettableMetadataKey(only)) {
    return {
      topic: TOPIC,
      verdict: 'differs',
      detail: `{status, ${only}}: the payload is under "${only}", not "${key}"; ${only} is ${shapeOf(answer[only])}, passed through as JSON`,
      settings: { UPSTREAM_METADATA_KEY: only },
    };
  }
  const keys = Object.keys(answer)
    .slice(0, 8)
    .map((k) => JSON.stringify(k.slice(0, 64)))
    .join(', ');
  return cannotTell(
    TOPIC,
    found.length === 0
      ? `answered no payload (keys ${keys}): the gateway reads such an answer as null metadata`
      : `answered no "${key}" and more than one key that could hold the payload (${keys}): set UPSTREAM_METADATA_KEY to the right one`,
  );
}

/** `UPSTREAM_METADATA_KEY`'s default, as its one description gives it. */
const DEFAULT_METADATA_KEY = UPSTREAM_SETTINGS.metadataKey.schema.parse(undefined);
