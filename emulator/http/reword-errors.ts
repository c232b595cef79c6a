/**
 * Another upstream's wording of its errors (`EMULATOR_ERROR_MESSAGES`): the emulator's own messages
 * (`invalid token: log in again`, `unknown object name`, …) replaced by the ones a team's upstream sends, so
 * that the gateway's message patterns (`UPSTREAM_AUTH_ERROR_PATTERN`, `UPSTREAM_CALLER_ERROR_PATTERN`) and
 * `npm run upstream:check`'s advice on them can be tried locally. `{objectName}` in a wording is replaced by
 * the request's `objectName` query parameter, as upstreams that name what they refused do.
 */
import { jsonText } from './json-text.ts';
import type { Reply } from './reply.ts';

/** `reply` with its `status: error` message reworded by `messages` (emulator message → wording), when listed. */
export function rewordError(
  reply: Reply,
  messages: Readonly<Record<string, string>>,
  objectName: string | null,
): Reply {
  // Success answers are never parsed: the marker is how the emulator itself writes an error payload.
  if (!reply.json.startsWith('{"status":"error"')) return reply;
  const payload = JSON.parse(reply.json) as Record<string, unknown>;
  const { message } = payload;
  if (typeof message !== 'string' || !Object.hasOwn(messages, message)) return reply;
  const wording = (messages[message] ?? message).split('{objectName}').join(objectName ?? '');
  return { ...reply, json: jsonText({ ...payload, message: wording }) };
}
