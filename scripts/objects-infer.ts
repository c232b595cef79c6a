/**
 * `npm run objects:infer -- <objectName> [--type-name Name] [--sample N] [--out file] [--force]`: writes a
 * `schema/objects/*.graphql` file for an upstream object type from live records, read through the
 * gateway's own upstream client with the gateway's settings (the four addresses, `APPLICATION_CODE`,
 * `ORGANIZATION_CODE`, `LOGIN_METHOD`). The login comes from `INFER_USERNAME` / `INFER_PASSWORD`, or is
 * asked for on the terminal. The file is checked with the gateway's own schema checks before it is written.
 * Only the type asked about is read, and the known types its fields are named after (references): never the
 * folder's other types, which the upstream may not have (the demo types, on a team's upstream).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../src/config/config-error.ts';
import { loadConfig } from '../src/config/load-config.ts';
import type { GatewayConfig } from '../src/config/gateway-config.ts';
import { OBJECTS_DIR, readTypeDefs } from '../src/app/build-schema.ts';
import { buildTypedApi } from '../src/typed/build-typed-api.ts';
import { createUpstreamClient } from '../src/upstream/client/client.ts';
import { clientSettingsOf } from '../src/upstream/client/client-settings.ts';
import { UpstreamError } from '../src/errors/upstream-error.ts';
import { withResilience } from '../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../src/upstream/resilience/retry-budget.ts';
import type { UpstreamClient, UpstreamCredentials, UpstreamRecord } from '../src/upstream/client/types.ts';
import { collectFieldStats } from './infer/field-stats.ts';
import { findRefs, type KnownType } from './infer/find-refs.ts';
import { inferFields } from './infer/infer-fields.ts';
import { createPrompt, NoAnswerError } from './infer/prompt.ts';
import { printObjectType, typeNameOf } from './infer/print-object-type.ts';
import { suggestTypeName } from '../src/typed/spec/suggest-type-name.ts';

/**
 * A mistake in the command line, the settings or the login's source: printed as one line saying what to
 * change, exit 2 (as `upstream:check`'s "could not run"); any other failure exits 1.
 */
class UsageError extends Error {}

const USAGE =
  'usage: npm run objects:infer -- <objectName> [--type-name Name] [--sample N] [--out file] [--force]';
const TYPE_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const PAGE_SIZE = 100;

function readArgs() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      sample: { type: 'string', default: '200' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      'type-name': { type: 'string' },
    },
  });
  const [objectName, ...extra] = positionals;
  if (
    objectName === undefined ||
    extra.length > 0 ||
    !/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(objectName)
  ) {
    throw new UsageError(USAGE);
  }
  const sample = Number(values.sample);
  if (!Number.isInteger(sample) || sample < 1 || sample > 10_000)
    throw new UsageError('--sample must be a whole number from 1 to 10000');
  const typeName = values['type-name'];
  if (typeName !== undefined && !TYPE_NAME.test(typeName))
    throw new UsageError('--type-name must be a GraphQL name: a letter or _, then letters, digits or _');
  return { objectName, typeName, sample, out: values.out, force: values.force };
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

async function logIn(client: UpstreamClient, config: GatewayConfig): Promise<UpstreamCredentials> {
  const prompt = createPrompt();
  let username: string, password: string;
  try {
    username = process.env.INFER_USERNAME ?? (await prompt.ask('Upstream username: '));
    password = process.env.INFER_PASSWORD ?? (await prompt.ask('Password: ', true));
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    throw new UsageError(
      `no terminal to ask for the ${error.message.toLowerCase()} on, and the input ended: set INFER_USERNAME and INFER_PASSWORD (or pipe the two answers, one a line)`,
    );
  } finally {
    prompt.close();
  }
  const base = { applicationCode: config.applicationCode, organizationCode: config.organizationCode };
  if (config.loginMethod === 'FORM') {
    const form = await client.loginForm(username, password);
    if (form.token === undefined)
      throw new UsageError('the form login answered no token: try LOGIN_METHOD=JSON');
    return { ...base, username: form.username, apiToken: form.token };
  }
  return { ...base, username, apiToken: (await client.loginJson(username, password)).token };
}

async function sampleRecords(
  client: UpstreamClient,
  credentials: UpstreamCredentials,
  objectName: string,
  sample: number,
) {
  const records: UpstreamRecord[] = [];
  let total = 0;
  for (let page = 0; records.length < sample; page++) {
    const read = await client.getAll(credentials, objectName, [], PAGE_SIZE, page);
    total = read.totalCount;
    records.push(...read.records.slice(0, sample - records.length));
    if (read.records.length < PAGE_SIZE) break;
  }
  return { records, total };
}

/** A type of the objects folder, and the file that declares it. */
interface DeclaredType extends KnownType {
  file: string;
}

/** The types of the objects folder, for references; none when the folder has mistakes of its own. */
function knownTypes(dir: string): DeclaredType[] {
  try {
    return buildTypedApi({ dir, baseTypeDefs: readTypeDefs() }).specs.map(
      ({ typeName, objectName, location }) => ({ typeName, objectName, file: location.file }),
    );
  } catch {
    process.stderr.write(`objects:infer: ${dir} has mistakes; no reference is suggested\n`);
    return [];
  }
}

/**
 * Builds the typed API with the new file beside the folder's other files, as the gateway will at start-up.
 * A file that already declares the same object type is left out: the new file replaces it.
 */
function checkWithGateway(dir: string, fileName: string, sdl: string, objectName: string): void {
  const scratch = mkdtempSync(join(tmpdir(), 'objects-infer-'));
  try {
    for (const f of existsSync(dir) ? readdirSync(dir) : []) {
      if (!f.endsWith('.graphql') || f === fileName) continue;
      const text = readFileSync(join(dir, f), 'utf8');
      if (!text.includes(JSON.stringify(objectName))) writeFileSync(join(scratch, f), text);
    }
    writeFileSync(join(scratch, fileName), sdl);
    buildTypedApi({ dir: scratch, baseTypeDefs: readTypeDefs() });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Refuses a type name another object type of the folder already has: one schema cannot hold two types of
 * one name, so the message names a free one to pass as `--type-name`.
 */
function refuseTakenName(
  typeName: string,
  args: { objectName: string; typeName: string | undefined },
  known: readonly DeclaredType[],
): void {
  const holder = known.find((type) => type.typeName === typeName && type.objectName !== args.objectName);
  if (holder === undefined) return;
  const taken = new Set(known.map((type) => type.typeName));
  const free = suggestTypeName(args.objectName, taken);
  throw new UsageError(
    `type ${typeName} is already ${holder.objectName}'s (${holder.file}): pass --type-name ${free} (or another name) to type ${args.objectName}`,
  );
}

async function main(): Promise<void> {
  const args = readArgs();
  const config = loadConfig();
  if (config.upstream.kind !== 'remote') {
    throw new UsageError(
      'objects:infer reads a real upstream: set API_URL, BASE_URL, STUDIO_URL, SERVER_URL and APPLICATION_CODE (for the emulator: npm run emulator, then its URL)',
    );
  }
  const dir = config.objectTypesDir ?? OBJECTS_DIR;
  const known = knownTypes(dir);
  const typeName = args.typeName ?? typeNameOf(args.objectName);
  refuseTakenName(typeName, args, known);
  const out = args.out ?? join(dir, `${kebab(typeName)}.graphql`);
  if (existsSync(out) && !args.force)
    throw new UsageError(`${out} exists: pass --force to replace it, or --out another file`);

  const { studioUrl } = config.upstream.urls;
  // Reads retried as the gateway retries them (the resilience layer holds the one retry loop); a tool run
  // by one person has no retry budget to keep, so every read gets its retries.
  const client = withResilience(
    createUpstreamClient({
      ...config.upstream.urls,
      ...clientSettingsOf(config),
    }),
    {
      ...config.resilience,
      originOf: () => studioUrl,
      retryBudget: createRetryBudget({
        ratio: config.resilience.retryBudgetPercent / 100,
        minRetriesPerWindow: Number.POSITIVE_INFINITY,
      }),
    },
  );
  try {
    const credentials = await logIn(client, config);
    const { records, total } = await sampleRecords(client, credentials, args.objectName, args.sample);
    if (records.length === 0)
      throw new UsageError(`no record of ${args.objectName} to learn from (the upstream counts ${total})`);
    const stats = collectFieldStats(records);
    const { refs, refused } = await findRefs(stats, {
      client,
      credentials,
      matchesMode: config.matchesMode,
      // The type being inferred is replaced by the new file: a reference to it is to its new name.
      knownTypes: [
        ...known.filter((type) => type.objectName !== args.objectName),
        { typeName, objectName: args.objectName },
      ],
    });
    for (const { objectName, reason } of refused) {
      process.stderr.write(
        `objects:infer: ${objectName} (declared in ${dir}) is not read by this upstream (${JSON.stringify(reason)}): no reference to it\n`,
      );
    }
    const fields = inferFields(stats, records.length, refs);
    if (fields.length === 0) {
      throw new UsageError(
        `the sampled records of ${args.objectName} hold no field besides _id: nothing to type`,
      );
    }
    const date = new Date().toISOString().slice(0, 10);
    const sdl = printObjectType(
      {
        objectName: args.objectName,
        typeName,
        typeNameOption: args.typeName,
        sampled: records.length,
        total,
        date,
      },
      fields,
    );
    checkWithGateway(dir, basename(out), sdl, args.objectName);
    writeFileSync(out, sdl);
    process.stdout.write(
      `objects:infer: wrote ${out}: ${typeName} with ${fields.length} fields (${refs.length} references) from ${records.length} of ${total} records\n`,
    );
  } finally {
    await client.close();
  }
}

/** The one line for a failure: the upstream's own message when it gave one (never a token or URL). */
function describeFailure(error: unknown): string {
  if (error instanceof UsageError || error instanceof ConfigError) return error.message;
  if (error instanceof UpstreamError) {
    const said =
      error.upstreamMessage === undefined
        ? ''
        : ` (the upstream says: ${JSON.stringify(error.upstreamMessage)})`;
    return `failed: ${error.message}${said}`;
  }
  return `failed: ${error instanceof Error ? error.message : String(error)}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`objects:infer: ${describeFailure(error)}\n`);
  process.exit(error instanceof UsageError || error instanceof ConfigError ? 2 : 1);
});
