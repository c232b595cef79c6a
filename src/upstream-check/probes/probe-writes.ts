/**
 * Writes, only with `--allow-writes` and a scratch type (`--write-object-name`): save creating, save with
 * `_id` updating (or creating), update's fields in the query string and its `updatedFields`, and the
 * credentials a write needs. Through the gateway's own client, so what is checked is what the gateway sends.
 * The objects it writes stay (the upstream has no delete); each carries `upstreamCheck` with the run's id.
 */
import { isUpstreamError, type UpstreamError } from '../../errors/upstream-error.ts';
import type { UpstreamRecord } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import { matches } from './filter-probe.ts';
import { badTokenFinding, madeUpCredentials } from './probe-errors.ts';
import { idPatternFor } from './probe-objects.ts';

type Attempt<T> = { ok: true; value: T } | { ok: false; error: UpstreamError };

async function attempt<T>(run: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (isUpstreamError(error)) return { ok: false, error };
    throw error;
  }
}

/** Runs the write probes (3 to 4 writes, 3 reads back, 2 refused writes). */
export async function probeWrites(context: CheckContext, writeObjectName: string): Promise<void> {
  const { client, credentials } = context;
  const run = `check-${Date.now().toString(36)}`;
  const readBack = async (id: string): Promise<UpstreamRecord | null | undefined> => {
    const found = await attempt(() =>
      client.getObject(credentials, writeObjectName, [matches('_id', idPatternFor(context, id))]),
    );
    return found.ok ? found.value : undefined;
  };

  const created = await attempt(() =>
    client.save(credentials, writeObjectName, { upstreamCheck: run, step: 1 }),
  );
  if (!created.ok) {
    context.report({ topic: 'save (create)', verdict: 'cannot-serve', detail: created.error.message });
    return;
  }
  const id = created.value.savedObjectId;
  const first = await readBack(id);
  context.report(
    first?.step === 1
      ? {
          topic: 'save (create)',
          verdict: 'as-assumed',
          detail: '{status, message, savedObjectId}; reads back',
        }
      : {
          topic: 'save (create)',
          verdict: 'cannot-serve',
          detail: 'the saved object does not read back by its savedObjectId',
        },
  );

  const again = await attempt(() =>
    client.save(credentials, writeObjectName, { _id: id, upstreamCheck: run, step: 2 }),
  );
  if (!again.ok) {
    context.report({ topic: 'save with _id', verdict: 'cannot-serve', detail: again.error.message });
  } else {
    const second = await readBack(id);
    context.report(
      again.value.savedObjectId === id && second?.step === 2
        ? { topic: 'save with _id', verdict: 'as-assumed', detail: 'updates the object it names' }
        : {
            topic: 'save with _id',
            verdict: 'cannot-serve',
            detail: `creates another object (${again.value.savedObjectId === id ? 'same id, old fields' : 'a new id'}): saveObject with _id would not update`,
          },
    );
  }

  const updated = await attempt(() => client.update(credentials, writeObjectName, id, { step: 3 }));
  if (!updated.ok) {
    context.report({
      topic: 'update',
      verdict: 'cannot-serve',
      detail: `fields in the query string: ${updated.error.message}`,
    });
  } else {
    const third = await readBack(id);
    const fields = Object.keys(updated.value.updatedFields);
    context.report(
      third?.step === 3
        ? {
            topic: 'update',
            verdict: 'as-assumed',
            detail: `takes the fields in the query string (data=JSON); updatedFields lists ${fields.join(', ') || 'nothing'}`,
          }
        : {
            topic: 'update',
            verdict: 'cannot-serve',
            detail: 'answered success but the field did not change',
          },
    );
  }

  const badCredentials = madeUpCredentials(credentials);
  const refusedSave = await attempt(() =>
    client.save(badCredentials, writeObjectName, { upstreamCheck: run, step: 'made-up token' }),
  );
  context.report(
    badTokenFinding(context, 'bad token (save)', refusedSave.ok ? undefined : refusedSave.error),
  );
  const refusedUpdate = await attempt(() => client.update(badCredentials, writeObjectName, id, { step: 4 }));
  context.report(
    badTokenFinding(context, 'bad token (update)', refusedUpdate.ok ? undefined : refusedUpdate.error),
  );
}
