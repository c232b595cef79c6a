/**
 * The save probes (`--allow-writes`): where a save answer carries the new id (`UPSTREAM_SAVE_ID_AT`), and
 * whether a save naming an `_id` with one field merges it into the object or replaces the object with it
 * (`UPSTREAM_SAVE_WITH_ID`). Through the gateway's own client, so the setting found is the one that works.
 */
import type { UpstreamClient } from '../../../upstream/client/types.ts';
import { SAVE_ID_PLACES } from '../../../upstream/dialect/writes/saved-id.ts';
import type { CheckContext } from '../../check-context.ts';
import { attempt, isMismatchOf, readBackUntil } from './write-attempt.ts';
import { unseenWrite } from '../read-lag/read-until.ts';

/** An object the probe created, and the client that reads save answers right. */
export interface ScratchObject {
  id: string;
  client: UpstreamClient;
}

const TOPIC_ID = 'save answer id';
const TOPIC_WITH_ID = 'save with _id';

/**
 * Creates an object of several fields with the configured `saveIdAt`; when its answer holds the id elsewhere,
 * again with each other place in turn until one reads it (1 to 3 saves, each a new scratch object): the
 * setting recommended is the one the gateway's own client was seen to read.
 */
export async function probeSaveId(
  context: CheckContext,
  objectName: string,
  run: string,
): Promise<ScratchObject | undefined> {
  const fields = { upstreamCheck: run, step: 1, kept: 'kept' };
  const configured = context.config.saveIdAt;
  const places = [configured, ...SAVE_ID_PLACES.filter((at) => at !== configured)];
  for (const at of places) {
    const client = at === configured ? context.client : context.clientWith({ saveIdAt: at });
    const saved = await attempt(() => client.save(context.credentials, objectName, fields));
    if (!saved.ok) {
      if (isMismatchOf(saved.error, 'save_id') && saved.error.applied?.objectId !== undefined) continue;
      const detail = isMismatchOf(saved.error, 'save_id')
        ? 'answers success with no id at savedObjectId, data._id or data: saveObject could not answer the id'
        : saved.error.message;
      context.report({ topic: TOPIC_ID, verdict: 'cannot-serve', detail });
      return undefined;
    }
    const id = saved.value.savedObjectId;
    const back = await readBackUntil(context, objectName, id, (r) => r?.step === 1);
    if (!back.shown) {
      // Missing or old: a lagging replica looks the same as an id that is not the object's.
      context.report({
        topic: TOPIC_ID,
        verdict: 'cannot-tell',
        detail: unseenWrite(`the object saved (id answered at ${at}, read by that id)`),
      });
      return undefined;
    }
    context.report({
      topic: TOPIC_ID,
      verdict: at === configured ? 'as-assumed' : 'differs',
      detail: `a save answers the new id at ${at}${at === 'data' ? ' (a bare string)' : ''}; it reads back`,
      settings: { UPSTREAM_SAVE_ID_AT: at },
    });
    return { id, client };
  }
  context.report({ topic: TOPIC_ID, verdict: 'cannot-serve', detail: 'no place of the answer held the id' });
  return undefined;
}

/** Saves ONE field of the scratch object by its `_id` (it has three), and reads back what stayed. */
export async function probeSaveWithId(
  context: CheckContext,
  objectName: string,
  scratch: ScratchObject,
  run: string,
): Promise<void> {
  const { id } = scratch;
  const again = await attempt(() =>
    scratch.client.save(context.credentials, objectName, { _id: id, step: 2 }),
  );
  // A save answer without a readable id (reported above) still wrote: what it did reads back.
  if (!again.ok && !isMismatchOf(again.error, 'save_id')) {
    context.report({ topic: TOPIC_WITH_ID, verdict: 'cannot-serve', detail: again.error.message });
    return;
  }
  const answeredId = again.ok ? again.value.savedObjectId : (again.error.applied?.objectId ?? id);
  if (answeredId !== id) {
    context.report({
      topic: TOPIC_WITH_ID,
      verdict: 'cannot-serve',
      detail: 'creates another object (a new id): saveObject with _id would not update',
    });
    return;
  }
  const back = await readBackUntil(context, objectName, id, (r) => r?.step === 2);
  const stored = back.value;
  if (!back.shown || stored === null || stored === undefined) {
    context.report({
      topic: TOPIC_WITH_ID,
      verdict: 'cannot-tell',
      detail: unseenWrite('a save with _id (same id answered)'),
    });
    return;
  }
  const configured = context.config.saveWithId;
  const merges = stored.kept === 'kept' && stored.upstreamCheck === run;
  const found = merges ? 'merges' : 'replaces';
  context.report({
    topic: TOPIC_WITH_ID,
    verdict: found === configured ? 'as-assumed' : 'differs',
    // Learnt on the scratch type only: another type's entity class may do otherwise, which the gateway
    // finds per type at run time (a save with _id holds every field it did not send).
    detail: `${
      merges
        ? 'one field sent with _id is merged into the object; the others stay'
        : 'one field sent with _id replaces the object: the others are gone (as MongoTemplate.save); saveObject with _id then reads, merges and writes the whole object'
    } (on ${objectName}; the gateway holds every other type to the fields it did not send, at run time)`,
    settings: { UPSTREAM_SAVE_WITH_ID: found },
  });
}
