/**
 * How update takes its fields (`UPSTREAM_UPDATE_FIELDS`, `--allow-writes`): first as one JSON query
 * parameter `data`, read back; when the field did not change (a servlet that turns every parameter into a
 * field makes a text field `data` of it instead), one query parameter per field, read back. Through the
 * gateway's own client in each form, so its `updatedFields` verification runs too.
 */
import type { UpdateFieldsForm } from '../../../upstream/dialect/writes/updated-fields.ts';
import type { CheckContext } from '../../check-context.ts';
import { attempt, isMismatchOf, readBackUntil } from './write-attempt.ts';
import { unseenWrite } from '../read-lag/read-until.ts';

const TOPIC = 'update fields';

const FORMS: readonly UpdateFieldsForm[] = ['data', 'params'];

/** Updates one text field of the scratch object in each form until one changes it (1 or 2 updates). */
export async function probeUpdateFields(
  context: CheckContext,
  objectName: string,
  id: string,
): Promise<void> {
  const configured = context.config.updateFields;
  const seen: string[] = [];
  let answeredSuccess = 0;
  for (const form of FORMS) {
    const value = `updated-as-${form}`;
    const client = form === configured ? context.client : context.clientWith({ updateFields: form });
    const updated = await attempt(() => client.update(context.credentials, objectName, id, { note: value }));
    if (!updated.ok && !isMismatchOf(updated.error, 'update_fields')) {
      context.report({ topic: TOPIC, verdict: 'cannot-serve', detail: updated.error.message });
      return;
    }
    if (updated.ok) answeredSuccess++;
    const back = await readBackUntil(
      context,
      objectName,
      id,
      (r) => r?.note === value || (r !== null && r !== undefined && Object.hasOwn(r, 'data')),
    );
    const stored = back.value;
    if (updated.ok && stored?.note === value) {
      const fields = Object.keys(updated.value.updatedFields).join(', ') || 'nothing';
      context.report({
        topic: TOPIC,
        verdict: form === configured ? 'as-assumed' : 'differs',
        detail: `${seen.join('; ')}${seen.length > 0 ? '; ' : ''}${
          form === 'data'
            ? 'takes the fields as one JSON query parameter (data=…)'
            : 'takes one query parameter per field (values travel as text)'
        }; updatedFields lists ${fields}`,
        settings: { UPSTREAM_UPDATE_FIELDS: form },
      });
      return;
    }
    seen.push(
      `${form === 'data' ? 'data=JSON' : 'one parameter per field'} left the field unchanged${
        stored !== null && stored !== undefined && Object.hasOwn(stored, 'data') && form === 'data'
          ? ' and made a field "data" of it'
          : ''
      }`,
    );
  }
  if (answeredSuccess === FORMS.length && !seen.some((s) => s.includes('"data"'))) {
    // Both forms answered success and neither made a field `data`: the read-backs may only be behind.
    context.report({ topic: TOPIC, verdict: 'cannot-tell', detail: unseenWrite('an update in either form') });
    return;
  }
  context.report({ topic: TOPIC, verdict: 'cannot-serve', detail: seen.join('; ') });
}
