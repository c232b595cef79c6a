/**
 * Which test files run where: the one list the vitest configs read.
 *
 * - `npm test` (`vitest.config.ts`): every test file but the heavy ones, then the object-type tests in a
 *   copy with a team's type (`vitest.team-type.config.ts`). It must finish within five minutes on two quiet
 *   cores: what a team runs many times a day.
 * - `npm run test:heavy` (`vitest.heavy.config.ts`): {@link HEAVY_TESTS}, then the whole suite in the copy
 *   with a team's type. CI runs both commands.
 *
 * A new test file lands in `npm test` unless it is named here. It belongs here when it needs what a team's
 * machine may not have at hand or takes long by design: a real JVM, a bundle or an image, Redis, many
 * replicas, a browser, Prometheus, a flood, a slow client, or a whole `upstream:check` run.
 */

/** Files of the heavy command, by what makes them heavy. */
export const HEAVY_TESTS = [
  // A real JVM: Java's own regex and charsets, compiled and run.
  'test/emulator/java-matches-differential.test.ts',
  'test/filters/find-anchoring-java.test.ts',
  'test/filters/java-agreement.test.ts',
  'test/filters/matches-case-java.test.ts',
  'test/hardening/nested-repetition.test.ts',
  'test/upstream/charset-java.test.ts',
  'test/upstream/pattern-guard-java.test.ts',
  // An upstream written apart from the gateway, from the owners' document alone, run on a JVM.
  'test/upstream/independent-upstream.test.ts',
  // The bundle and the image as built, and the processes they leave.
  'test/build/bundle.test.ts',
  'test/build/image.test.ts',
  'test/build/bundle-traces.test.ts',
  'test/build/child-teardown.test.ts',
  'test/deploy/ingress-proxy-trust.test.ts',
  'test/deploy/redis-password.test.ts',
  'test/deploy/runtime-modules.test.ts',
  'test/start/start-command.test.ts',
  // Redis faults and replicas sharing Redis.
  'test/hardening/redis-faults.test.ts',
  'test/hardening/revocation-flush.test.ts',
  'test/hardening/login-aiming.test.ts',
  'test/hardening/login-bursts.test.ts',
  'test/hardening/login-unaimable.test.ts',
  'test/hardening/response-cache-replicas.test.ts',
  'test/hardening/response-cache-differential.test.ts',
  // Floods, fairness under load, slow clients, signals and shutdown.
  'test/hardening/pattern-checker.test.ts',
  'test/hardening/padded-documents.test.ts',
  'test/hardening/sigterm-supervisor-leaves.test.ts',
  'test/hardening/shutdown.test.ts',
  'test/e2e/slow-clients.test.ts',
  'test/hardening/faults.test.ts',
  'test/hardening/pattern-guard-fairness.test.ts',
  'test/hardening/parse-fairness.test.ts',
  'test/hardening/slow-sockets.test.ts',
  'test/hardening/large-answers.test.ts',
  'test/hardening/login-counter-flood.test.ts',
  'test/hardening/anonymous-breaker.test.ts',
  'test/hardening/login-flood.test.ts',
  'test/hardening/pipelining-flood.test.ts',
  'test/hardening/cpu-share-floods.test.ts',
  'test/hardening/two-replica-floods.test.ts',
  'test/hardening/anonymous-total-fairness.test.ts',
  // Randomised writes against every write dialect at once, waiting out a lagging replica.
  'test/e2e/write-dialects-random.test.ts',
  // Whole `npm run upstream:check` runs against dialect emulators.
  'test/upstream-check/check-matches-case-metadata-key.test.ts',
  'test/upstream-check/write-dialects.test.ts',
  'test/upstream-check/upstream-check.test.ts',
  'test/upstream-check/paging-dialects.test.ts',
  'test/upstream-check/charset-check.test.ts',
  'test/upstream-check/check-whole.test.ts',
  'test/upstream-check/every-dialect.test.ts',
  'test/upstream-check/field-kinds.test.ts',
  // The bench's peers, a browser, Prometheus.
  'bench/test/peers.test.ts',
  'test/browser/example-web.test.ts',
  'test/observability/on-call-rules.test.ts',
  'test/observability/alerts-fire.test.ts',
  'test/observability/promtool.test.ts',
] as const;

/**
 * Heavy files that time a victim's reads beside a flood against its own quiet p95: `npm run test:heavy`
 * runs them last, one at a time, alone on the machine (`vitest.heavy.config.ts`).
 */
export const ALONE_TESTS = [
  'test/hardening/cpu-share-floods.test.ts',
  'test/hardening/two-replica-floods.test.ts',
  'test/hardening/anonymous-total-fairness.test.ts',
] as const satisfies readonly (typeof HEAVY_TESTS)[number][];

/** Where test files live. */
export const TEST_FILES = ['test/**/*.test.ts', 'bench/test/**/*.test.ts', 'scripts/test/**/*.test.ts'];

/**
 * The steps that add a team's type to a copy of the repository and test the copy: never files of a suite
 * they run (vitest would recurse into itself), each the last step of its command.
 */
export const TEAM_TYPE_TESTS = {
  /** `npm test`: codegen, both type checks and {@link OBJECT_TYPE_TESTS} in the copy. */
  objectTypes: 'test/build/team-type.test.ts',
  /** `npm run test:heavy`: codegen, both type checks and the whole suite (both commands') in the copy. */
  wholeSuite: 'test/build/team-type-whole-suite.test.ts',
} as const;

/**
 * The tests that read object types (`schema/objects/`, the typed API built from them, codegen's output):
 * what a team's new type can break. The copy of `npm test`'s team-type step runs these.
 */
export const OBJECT_TYPE_TESTS = [
  'test/typed',
  'test/infer',
  'test/federation',
  'test/emulator/object-types.test.ts',
  'test/limits/cost-limit.test.ts',
  'test/unit/upstream-call-estimate.test.ts',
  'scripts/test',
];
