# The gateway as a container image:
#   docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) -t jsonp-graphql-gateway .
#
# Three stages: the production dependencies; the bundle (`npm run build`: src/ into dist/main.js and the
# chunks it imports only when asked, such as tracing's SDK; the emulator left out, packages left in node_modules); the runtime, which copies both beside the schema and
# runs the bundle as the unprivileged `node` user (uid 1000). The bundle spares production Node's type stripping: about
# half the start-up time and a smaller resident set. Settings come from the environment (docs/settings.md); in production
# SESSION_SECRET and the four upstream addresses are required. The emulator (emulator/) is not in the
# image: UPSTREAM=emulator cannot work here, by design.

# Base images by tag, not digest: this repository is built and tested where no container registry can be
# reached, so no digest could be resolved and checked here. A reproducible build pins them: resolve the tag
# once (`docker buildx imagetools inspect node:24-bookworm-slim`, the "Digest:" line) and write all three
# FROM lines as `node:24-bookworm-slim@sha256:<digest>` (deploy/README.md, "Pinning the images").
FROM node:24-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prune-runtime-modules.ts ./scripts/prune-runtime-modules.ts
COPY support/runtime-modules.ts ./support/runtime-modules.ts
COPY src/http/graphiql.ts ./src/http/graphiql.ts
# No dev dependencies (test, lint, codegen, bench tools), no install scripts; then out goes what a production
# start never loads: the explorer's UI but the four files /graphiql serves (so LANDING_PAGE=true still works),
# recheck's Java and native agents (the pattern checker runs its pure-JavaScript build). In the same layer,
# so the image never carries them: node_modules 284 -> 121 MB, the image 135 MB smaller (deploy/README.md,
# "The image").
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && node scripts/prune-runtime-modules.ts /app \
  && npm cache clean --force

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# esbuild is a dev dependency; this stage is thrown away, only dist/ leaves it.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.ts ./scripts/build.ts
COPY src ./src
# `npm run build`, with the image's Node (the pinned `node` package's install script did not run).
RUN node scripts/build.ts

FROM node:24-bookworm-slim AS runtime
# The commit the image is built from, in `gateway_build_info{commit}` (`unknown` when not given).
ARG GIT_COMMIT=unknown
# MALLOC_ARENA_MAX=1: one malloc arena instead of one per busy thread (V8's compiler and GC threads); the
# per-thread arenas kept 10-15 MB of freed memory resident under load (bench/RESULTS.md).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    MALLOC_ARENA_MAX=1 \
    GIT_COMMIT=$GIT_COMMIT
# tini as PID 1: it passes signals on to Node and reaps children, so Node is not PID 1 and keeps the kernel's
# default actions: a second SIGTERM, and the shutdown watchdog's SIGKILL, end it even with its event loop
# blocked (the kernel applies no default action to PID 1; without tini Node ends on a second signal only
# while its event loop runs).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=dependencies --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json ./
COPY --chown=root:root schema ./schema
COPY --from=build --chown=root:root /app/dist ./dist
# Files stay owned by root and read-only to the process: a compromised process cannot rewrite its code.
# The node image's `node` user, by number: with `runAsNonRoot` the kubelet refuses an image whose USER is a
# name ("image has non-numeric user (node), cannot verify user is non-root") unless the pod sets runAsUser.
USER 1000:1000
EXPOSE 4000
# No shell tools in the check: Node's own fetch against /healthz (exec form, no /bin/sh).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz', { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (readiness first, then in-flight requests within SHUTDOWN_GRACE_MS) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
# The bundle, with the heap sizes of `npm start`: a 16 MiB semi-space, chosen by the bench's sweep (8, 16, 32, 64:
# the most requests per core with the peak resident set within 320 MiB under the bench's load and under the
# floods of test/hardening; bench/RESULTS.md), and an old space capped like deploy/kubernetes does.
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=256", "dist/main.js"]
