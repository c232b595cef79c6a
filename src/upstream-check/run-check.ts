/**
 * `npm run upstream:check`'s core: reads the gateway's settings, logs in with the test account, runs every
 * probe in turn (paced), and answers the report. Read-only unless writes were allowed.
 */
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load-config.ts';
import { createUpstreamClient } from '../upstream/client/client.ts';
import { clientSettingsOf } from '../upstream/client/client-settings.ts';
import { createPatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type { CheckOptions } from './check-options.ts';
import type { CheckContext, Learnt } from './check-context.ts';
import {
  CheckCannotRun,
  collectSettings,
  exitCodeOf,
  type CheckReport,
  type Finding,
  cannotTell,
} from './probes/finding.ts';
import { pacedClient } from './paced-client.ts';
import { createPacer } from './pacer.ts';
import { probeCharset } from './probes/probe-charset.ts';
import { probeErrors } from './probes/probe-errors.ts';
import { probeFirstPage } from './probes/probe-first-page.ts';
import { probeLogins } from './probes/probe-logins.ts';
import { probeMatches } from './probes/probe-matches.ts';
import { probeObjects } from './probes/probe-objects.ts';
import { probePaging } from './probes/probe-paging.ts';
import { probeUrlLimit } from './probes/probe-url-limit.ts';
import { probeWrites } from './probes/probe-writes.ts';
import { createRawUpstream } from './raw-upstream.ts';

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
  const { urls } = config.upstream;
  const pacer = createPacer(options.requestsPerSecond);
  const raw = createRawUpstream(urls, pacer, config.upstreamCallTimeoutMillis);
  const client = pacedClient(
    createUpstreamClient({
      ...urls,
      ...clientSettingsOf(config),
      // Probes send raw `pageStart` values and anchor patterns themselves.
      pageStartMode: 'page0',
      matchesMode: 'regex',
      connectionsPerOrigin: 2,
    }),
    pacer,
  );
  const findings: Finding[] = [];
  const report = (finding: Finding) => findings.push(finding);
  try {
    const credentials = await probeLogins({ raw, config, report }, options.username, options.password);
    if (credentials !== undefined) {
      const learnt: Learnt = {
        firstPageStart: 0,
        pageStart: undefined,
        matches: undefined,
        sample: [],
        target: undefined,
      };
      const context: CheckContext = {
        config,
        urls,
        client,
        raw,
        guard: createPatternGuard({ maxLength: config.maxPatternLength }),
        credentials,
        objectName: options.objectName,
        learnt,
        report,
      };
      await probeReads(context, options.objectName);
      await probeErrors(context, options.objectName);
      await probeCharset(context, options.allowWrites ? options.writeObjectName : undefined);
      if (options.allowWrites && options.writeObjectName !== undefined) {
        await probeWrites(context, options.writeObjectName);
      } else {
        report({
          topic: 'writes',
          verdict: 'cannot-tell',
          detail: 'not probed: pass --allow-writes --write-object-name NAME (a scratch type)',
        });
      }
    }
  } finally {
    await Promise.all([raw.close(), client.close()]);
  }
  return {
    checkedAt: new Date().toISOString(),
    upstream: urls,
    objectName: options.objectName,
    writesAllowed: options.allowWrites,
    writeObjectName: options.writeObjectName,
    requests: pacer.count(),
    findings,
    settings: collectSettings(findings),
    exitCode: exitCodeOf(findings),
  };
}

async function probeReads(context: CheckContext, objectName: string | undefined): Promise<void> {
  if (objectName === undefined) {
    context.report(
      cannotTell('reads', 'not probed: pass --object-name NAME (an existing type with a few records)'),
    );
    return;
  }
  if (!(await probeFirstPage(context, objectName))) return;
  await probePaging(context, objectName);
  await probeMatches(context, objectName);
  await probeObjects(context, objectName);
  await probeUrlLimit(context, objectName);
}
