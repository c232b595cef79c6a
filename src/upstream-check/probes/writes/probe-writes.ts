/**
 * Writes, only with `--allow-writes` and a scratch type (`--write-object-name`): where a save answer carries
 * the id, whether a save with `_id` merges or replaces, how update takes its fields (each probed on its own:
 * `probe-save.ts`, `probe-update.ts`), and the credentials a write needs. Through the gateway's own client,
 * so what is checked is what the gateway sends. The objects it writes stay (the upstream has no delete); each
 * carries `upstreamCheck` with the run's id.
 */
import type { CheckContext } from '../../check-context.ts';
import { badTokenFinding, madeUpCredentials } from '../probe-errors.ts';
import { probeSaveId, probeSaveWithId } from './probe-save.ts';
import { probeUpdateFields } from './probe-update.ts';
import { attempt } from './write-attempt.ts';
import { readLagFinding } from '../read-lag/read-until.ts';
import { cannotTell } from '../finding.ts';
import { matches } from '../filter-probe.ts';
import { idPatternFor } from '../probe-objects.ts';
import type { ScratchObject } from './probe-save.ts';

/** Runs the write probes (2 to 4 saves, 1 to 2 updates, a read back after each, 2 refused writes). */
export async function probeWrites(context: CheckContext, writeObjectName: string): Promise<void> {
  const { client, credentials } = context;
  const run = `check-${Date.now().toString(36)}`;
  // Each probe on its own: without an id from the save answer, the object is found by the field it saved.
  const scratch =
    (await probeSaveId(context, writeObjectName, run)) ?? (await findScratch(context, writeObjectName, run));
  if (scratch === undefined) {
    const detail = 'not probed: no scratch object could be saved and read';
    context.report(cannotTell('save with _id', detail));
    context.report(cannotTell('update fields', detail));
  } else {
    await probeSaveWithId(context, writeObjectName, scratch, run);
    await probeUpdateFields(context, writeObjectName, scratch.id);
  }

  const badCredentials = madeUpCredentials(credentials);
  const refusedSave = await attempt(() =>
    client.save(badCredentials, writeObjectName, { upstreamCheck: run, step: 'made-up token' }),
  );
  context.report(
    badTokenFinding(context, 'bad token (save)', refusedSave.ok ? undefined : refusedSave.error),
  );
  const refusedUpdate = await attempt(() =>
    client.update(badCredentials, writeObjectName, scratch?.id ?? 'upstream-check-no-object', { step: 4 }),
  );
  context.report(
    badTokenFinding(context, 'bad token (update)', refusedUpdate.ok ? undefined : refusedUpdate.error),
  );
  context.report(readLagFinding(context));
}

/** The object this run saved, found by its `upstreamCheck` field (when the save answer gave no usable id). */
async function findScratch(
  context: CheckContext,
  objectName: string,
  run: string,
): Promise<ScratchObject | undefined> {
  const found = await attempt(() =>
    context.client.getObject(context.credentials, objectName, [
      matches('upstreamCheck', idPatternFor(context, run)),
    ]),
  );
  return found.ok && found.value !== null ? { id: found.value._id, client: context.client } : undefined;
}
