/**
 * The object type the read probes read. `--object-name` when given; else one the check finds itself among
 * the types this gateway is deployed to serve (the `@dataObject` names of `schema/objects/`, or
 * `OBJECT_TYPES_DIR`): the upstream has no list of its types, and the check is about this deployment. Never
 * a report of "can work" without one type read: when none answers, the check cannot run (exit 2).
 */
import { Kind } from 'graphql';
import { OBJECTS_DIR } from '../../app/build-schema.ts';
import type { GatewayConfig } from '../../config/gateway-config.ts';
import { readObjectFiles } from '../../typed/spec/read-object-files.ts';
import type { CheckContext } from '../check-context.ts';
import { CheckCannotRun } from './finding.ts';
import { probeFirstPage, rawGetAll, readPageAnswer, refusalOf, type PageAnswer } from './probe-first-page.ts';

/** At most this many declared types are tried, one or two reads each. */
export const MAX_CANDIDATES = 10;

/** Records read of each candidate (the first page's sample is read again once the type is chosen). */
const PAGE_SIZE = 10;

/**
 * A type with this many records is taken at once; else the one with the most among those tried: the
 * largest-page probe can only tell a page cap from the end of the records with more records than it asks.
 */
const ENOUGH_RECORDS = 1000;

/** Where the gateway reads its types, as the report names it. */
const whereDeclared = (config: GatewayConfig) => config.objectTypesDir ?? 'schema/objects/';

/** The `@dataObject(name:)` names of the gateway's object types, in file order (files that do not parse: none). */
export function declaredObjectNames(config: GatewayConfig): string[] {
  const { files } = readObjectFiles(config.objectTypesDir ?? OBJECTS_DIR);
  const names: string[] = [];
  for (const { document } of files) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      const directive = definition.directives?.find((d) => d.name.value === 'dataObject');
      const value = directive?.arguments?.find((a) => a.name.value === 'name')?.value;
      if (value?.kind === Kind.STRING) names.push(value.value);
    }
  }
  return names;
}

/** One read of a candidate's first page (page 1 too when page 0 is refused). */
async function firstAnswer(context: CheckContext, objectName: string): Promise<PageAnswer> {
  const answer = readPageAnswer(await rawGetAll(context, objectName, { pageSize: PAGE_SIZE, pageStart: 0 }));
  if (answer.ok || !answer.refused) return answer;
  const second = readPageAnswer(await rawGetAll(context, objectName, { pageSize: PAGE_SIZE, pageStart: 1 }));
  return second.ok ? second : answer;
}

/**
 * Finds the type to read among `candidates` (the first with {@link ENOUGH_RECORDS} records, else the one
 * with the most), reads it as {@link probeFirstPage} does and records it in `learnt.objectName`. Throws
 * {@link CheckCannotRun} when the upstream knows none of them or refuses the account.
 */
async function findObjectType(context: CheckContext, candidates: readonly string[]): Promise<void> {
  const where = whereDeclared(context.config);
  const tried: { name: string; answer: PageAnswer }[] = [];
  for (const name of candidates.slice(0, MAX_CANDIDATES)) {
    const answer = await firstAnswer(context, name);
    if (!answer.ok && answer.message !== undefined && refusalOf(context, answer.message) === 'account') {
      // probeFirstPage says so, and how to fix it.
      await probeFirstPage(context, name);
    }
    tried.push({ name, answer });
    if (answer.ok && answer.totalCount >= ENOUGH_RECORDS) break;
  }
  const readable = tried.filter((t) => t.answer.ok);
  const most = (t: (typeof tried)[number]) => (t.answer.ok ? t.answer.totalCount : -1);
  const best = readable.reduce<(typeof tried)[number] | undefined>(
    (a, t) => (a === undefined || most(t) > most(a) ? t : a),
    undefined,
  );
  // An answer the gateway cannot read (not a refusal in `status: error`) is a finding: the first read's rows
  // say what the upstream answered. Refusals, of the name or otherwise, leave the check with no type to read.
  const chosen = best ?? tried.find((t) => !t.answer.ok && t.answer.message === undefined);
  if (chosen === undefined) {
    const answers = tried.map((t) => {
      // The upstream's own words, never the token it may echo.
      const message = (t.answer.ok ? '' : (t.answer.message ?? ''))
        .split(context.credentials.apiToken)
        .join('[redacted]');
      const refusal =
        refusalOf(context, message) === 'name' ? 'unknown' : JSON.stringify(message.slice(0, 80));
      return `${t.name}: ${refusal}`;
    });
    throw new CheckCannotRun(
      tried.length === 0
        ? `no --object-name, and ${where} declares no type to read: pass --object-name NAME (an existing type with a few records)`
        : `no --object-name, and the upstream refused every type of ${where} tried (${answers.join('; ')}): pass --object-name NAME (an existing type with a few records)`,
    );
  }
  context.report({
    topic: 'object type',
    verdict: best === undefined ? 'cannot-tell' : 'as-assumed',
    detail:
      best === undefined
        ? `none of the types of ${where} could be read; tried ${tried.map((t) => t.name).join(', ')}`
        : `${chosen.name}, the one with the most records (${most(chosen)}) of the ${tried.length} types of ${where} tried; --object-name names another`,
  });
  if (await probeFirstPage(context, chosen.name)) context.learnt.objectName = chosen.name;
}

/** Runs the first read of `--object-name`, or finds a type among those the gateway declares. */
export async function probeObjectType(context: CheckContext, objectName: string | undefined): Promise<void> {
  if (objectName !== undefined) {
    if (await probeFirstPage(context, objectName)) context.learnt.objectName = objectName;
    return;
  }
  await findObjectType(context, declaredObjectNames(context.config));
}
