/**
 * `npm run upstream:check`'s core: reads the gateway's settings, logs in with the test account, runs every
 * probe of {@link PROBES} in turn (paced), and answers the report. Read-only unless writes were allowed.
 *
 * Every probe runs, whatever an earlier one found: one CANNOT SERVE row hides no other. The list, in order,
 * is one entry per probe, made by {@link probe}:
 *
 * ```ts
 * probe(name, topics, needs, (context, got) => probeSomething(context, got.objectName))
 * ```
 *
 * - `name`: the report's one row when the probe cannot run;
 * - `topics`: the rows it answers: one it did not report (it stopped at an earlier finding) gets a
 *   `cannot tell` row, so that no question disappears from the report;
 * - `needs`: what it needs of what the earlier probes learnt or the command line gave (see {@link Need}):
 *   when one is missing, the probe is not run and its `name` row says `cannot tell` and why;
 * - the function: gets the context (`context.learnt` holds what earlier probes learnt) and the needed names,
 *   reports its findings with `context.report`, and records what later probes may use in `context.learnt`.
 *   It throws only {@link CheckCannotRun}, for a mistake in the check's own settings or arguments (exit 2).
 */
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load-config.ts';
import { createUpstreamClient } from '../upstream/client/client.ts';
import { clientSettingsOf } from '../upstream/client/client-settings.ts';
import type { UpstreamClient, UpstreamClientSettings } from '../upstream/client/types.ts';
import { createPatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type { CheckOptions } from './check-options.ts';
import type { CheckContext, Learnt } from './check-context.ts';
import {
  CheckCannotRun,
  collectSettings,
  EXIT,
  exitCodeOf,
  type CheckReport,
  type Finding,
  cannotTell,
} from './probes/finding.ts';
import { pacedClient } from './paced-client.ts';
import { createPacer } from './pacer.ts';
import { probeAnswerCharset, probeTextRoundTrip } from './probes/probe-charset.ts';
import { probeErrors } from './probes/probe-errors.ts';
import { probeFieldKinds, UNFILTERABLE_TOPIC } from './probes/field-kinds/probe-field-kinds.ts';
import { probeLogins } from './probes/logins/probe-logins.ts';
import { probeMatches } from './probes/probe-matches.ts';
import { declaredObjectNames, probeObjectType } from './probes/probe-object-type.ts';
import { probeObjects } from './probes/probe-objects.ts';
import { probePaging } from './probes/probe-paging.ts';
import { probeUrlLimit } from './probes/probe-url-limit.ts';
import { probeWrites } from './probes/writes/probe-writes.ts';
import { createRawUpstream } from './raw-upstream.ts';

/**
 * What a probe may need besides the session: `objectName`, a type the first read could read
 * (`learnt.objectName`); `writeObjectName`, the scratch type writes were allowed to (`--allow-writes
 * --write-object-name`).
 */
export type Need = 'objectName' | 'writeObjectName';

/** One entry of {@link PROBES} (see the module comment). */
export interface CheckProbe {
  name: string;
  topics: readonly string[];
  needs: readonly Need[];
  run(context: CheckContext, got: Readonly<Record<Need, string>>): Promise<void>;
}

/** An entry of {@link PROBES}; `run` gets exactly the names it declared in `needs`. */
export function probe<N extends Need>(
  name: string,
  topics: readonly string[],
  needs: readonly N[],
  run: (context: CheckContext, got: Readonly<Record<N, string>>) => Promise<void>,
): CheckProbe {
  return { name, topics, needs, run };
}

const MATCHES_TOPICS = [
  'matches semantics',
  'matches case',
  'regex escapes',
  'matches on fields',
  'criteria combined',
  'dotted paths',
];
const WRITES_TOPICS = [
  'save answer id',
  'save with _id',
  'update fields',
  'bad token (save)',
  'bad token (update)',
  'reads after writes',
];

/** Every probe after the logins, in order. */
export const PROBES: readonly CheckProbe[] = [
  // First: the unknown-name pattern it learns tells a mistyped --object-name from another refusal.
  probe('errors', ['bad token (read)', 'unknown object name', 'invalid pattern'], [], (c) =>
    probeErrors(c, c.objectName),
  ),
  probe('getAll', ['JSONP wrapper', 'callback echo', 'getAll'], [], (c) => probeObjectType(c, c.objectName)),
  probe(
    'paging',
    ['pageStart base', 'default page size', 'largest page size', 'totalCount'],
    ['objectName'],
    (c, { objectName }) => probePaging(c, objectName),
  ),
  probe('answer charset', ['answer charset'], ['objectName'], (c, { objectName }) =>
    probeAnswerCharset(c, objectName),
  ),
  probe('matches', MATCHES_TOPICS, ['objectName'], (c, { objectName }) => probeMatches(c, objectName)),
  probe('getObject and metadata', ['getObject', 'metadata'], ['objectName'], (c, { objectName }) =>
    probeObjects(c, objectName),
  ),
  // Every declared type, after `matches` is learnt: the gateway's own filters, as it would send them.
  probe('field kinds', [UNFILTERABLE_TOPIC], ['objectName'], (c) => probeFieldKinds(c)),
  probe('request-line limit', ['request-line limit'], ['objectName'], (c, { objectName }) =>
    probeUrlLimit(c, objectName),
  ),
  probe('text round trip', [], ['writeObjectName'], (c, { writeObjectName }) =>
    probeTextRoundTrip(c, writeObjectName),
  ),
  probe('writes', WRITES_TOPICS, ['writeObjectName'], (c, { writeObjectName }) =>
    probeWrites(c, writeObjectName),
  ),
];

/** Why a need is not met, for the report. */
const MISSING: Record<Need, string> = {
  objectName: 'no object type was read (see the getAll row)',
  writeObjectName: 'pass --allow-writes --write-object-name NAME (a scratch type)',
};

/**
 * Runs every probe of `probes` whose needs are met; the others get a `cannot tell` row each, as does every
 * topic a probe that ran did not report.
 */
export async function runProbes(
  context: CheckContext,
  probes: readonly CheckProbe[],
  writeObjectName: string | undefined,
): Promise<void> {
  const reported = new Set<string>();
  const report = (finding: Finding) => {
    reported.add(finding.topic);
    context.report(finding);
  };
  const tracked: CheckContext = { ...context, report };
  for (const entry of probes) {
    const have: Record<Need, string | undefined> = {
      objectName: context.learnt.objectName,
      writeObjectName,
    };
    const missing = entry.needs.find((need) => have[need] === undefined);
    if (missing !== undefined) {
      report(cannotTell(entry.name, `not probed: ${MISSING[missing]}`));
      continue;
    }
    const got = { objectName: have.objectName ?? '', writeObjectName: have.writeObjectName ?? '' };
    await entry.run(tracked, got);
    for (const topic of entry.topics.filter((t) => !reported.has(t))) {
      report(cannotTell(topic, `not asked: what the ${entry.name} probe found first left no way to ask it`));
    }
  }
}

function readConfig(env: NodeJS.ProcessEnv) {
  try {
    // The check serves no sessions: production's own requirements (SESSION_SECRET) do not apply to it.
    return loadConfig({ ...env, NODE_ENV: undefined });
  } catch (error) {
    if (error instanceof ConfigError) throw new CheckCannotRun(error.message);
    throw error;
  }
}

/** Runs the check. Throws {@link CheckCannotRun} when it cannot (settings, unreachable, bad credentials). */
export async function runCheck(options: CheckOptions, env: NodeJS.ProcessEnv): Promise<CheckReport> {
  const config = readConfig(env);
  if (config.upstream.kind !== 'remote') {
    throw new CheckCannotRun(
      'set API_URL, BASE_URL, STUDIO_URL, SERVER_URL and APPLICATION_CODE: the upstream to check',
    );
  }
  if (options.objectName === undefined && declaredObjectNames(config).length === 0) {
    throw new CheckCannotRun(
      `no --object-name, and ${config.objectTypesDir ?? 'schema/objects/'} declares no type to read: pass --object-name NAME (an existing type with a few records)`,
    );
  }
  const { urls } = config.upstream;
  const pacer = createPacer(options.requestsPerSecond);
  const raw = createRawUpstream(urls, pacer, config.upstreamCallTimeoutMillis);
  const clients: UpstreamClient[] = [];
  const clientWith = (settings: Partial<UpstreamClientSettings>): UpstreamClient => {
    const made = createUpstreamClient({
      ...urls,
      ...clientSettingsOf(config),
      // Probes send raw `pageStart` values and frame patterns themselves (anchors, `(?-i)`).
      pageStartMode: 'page0',
      matchesMode: 'regex',
      matchesCase: 'sensitive',
      connectionsPerOrigin: 2,
      ...settings,
    });
    clients.push(made);
    return pacedClient(made, pacer);
  };
  const client = clientWith({});
  const findings: Finding[] = [];
  const report = (finding: Finding) => findings.push(finding);
  const learnt: Learnt = {
    firstPageStart: 0,
    pageStart: undefined,
    matches: undefined,
    sample: [],
    target: undefined,
    objectName: undefined,
    callerErrorPattern: undefined,
  };
  try {
    const credentials = await probeLogins(
      { raw, config, report },
      options.username,
      options.password,
      options.objectName,
    );
    if (credentials === undefined) {
      for (const entry of PROBES) report(cannotTell(entry.name, 'not probed: no login answered a token'));
    } else {
      const context: CheckContext = {
        config,
        urls,
        client,
        raw,
        clientWith,
        guard: createPatternGuard({ maxLength: config.maxPatternLength }),
        credentials,
        objectName: options.objectName,
        learnt,
        report,
      };
      await runProbes(context, PROBES, options.allowWrites ? options.writeObjectName : undefined);
    }
  } finally {
    await Promise.all([raw.close(), ...clients.map((made) => made.close())]);
  }
  const exitCode = exitCodeOf(findings);
  return {
    checkedAt: new Date().toISOString(),
    upstream: urls,
    objectName: learnt.objectName ?? options.objectName,
    writesAllowed: options.allowWrites,
    writeObjectName: options.writeObjectName,
    requests: pacer.count(),
    findings,
    settings: collectSettings(findings),
    // Never "can work" without one object type read: the check could not tell (README, exit codes).
    exitCode: exitCode === EXIT.works && learnt.objectName === undefined ? EXIT.couldNotRun : exitCode,
  };
}
