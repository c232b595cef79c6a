/**
 * Packaging: the Kubernetes example in deploy/ and the Dockerfile agree with the code (ports, probe paths,
 * settings, Secret, Redis), and the image's HEALTHCHECK works with nothing but Node. Docker itself cannot
 * run here, so the image is checked by reading its Dockerfile and running its health check command.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { shutdownDeadlineMillis } from '../../src/app/shutdown.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { useHarness } from '../support/gateway-harness.ts';

const NODE = resolve('node_modules/.bin/node');
const DEFAULT_PORT = loadConfig({}).port;

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    ports?: { port: number; targetPort?: string | number }[];
    template?: { spec: { containers: Container[]; terminationGracePeriodSeconds?: number } };
  };
}

const manifests: Manifest[] = readdirSync('deploy/kubernetes')
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((name) =>
    parseAllDocuments(readFileSync(join('deploy/kubernetes', name), 'utf8')).map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS() as Manifest;
    }),
  );
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
};
const web = find('Deployment', 'web');
const gateway = web.spec?.template?.spec.containers.find((c) => c.name === 'gateway');
const config = find('ConfigMap', 'gateway-config').data ?? {};

const h = useHarness();

describe('Kubernetes example', () => {
  it('should run two replicas, each with the gateway as a sidecar of the front-end', () => {
    expect(web.spec?.replicas).toBe(2);
    expect(web.spec?.template?.spec.containers.map((c) => c.name)).toEqual(['web', 'gateway']);
  });

  it('should expose the port the gateway listens on', () => {
    expect(gateway?.ports).toEqual([{ name: 'gateway', containerPort: DEFAULT_PORT }]);
    expect(Number(config.PORT)).toBe(DEFAULT_PORT);
  });

  it('should probe /healthz for liveness and /readyz for readiness, routes the gateway really serves', async () => {
    expect(gateway?.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'gateway' });
    expect(gateway?.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'gateway' });
    expect(gateway?.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'gateway' });
    const base = h.graphqlUrl.replace(/\/graphql$/, '');
    for (const path of ['/healthz', '/readyz']) expect((await fetch(`${base}${path}`)).status).toBe(200);
  });

  it('should set resource requests, and a memory limit well above the V8 heap cap', () => {
    expect(gateway?.resources?.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    const limitMiB = Number(/^(\d+)Mi$/.exec(gateway?.resources?.limits?.memory ?? '')?.[1]);
    const options = gateway?.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '';
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(options)?.[1]);
    expect(heapMiB).toBeGreaterThan(0);
    // Code, buffers and the young generation live outside the old space: leave them room.
    expect(heapMiB).toBeLessThanOrEqual(limitMiB * 0.6);
  });

  it('should read SESSION_SECRET from the Secret the example defines', () => {
    const ref = gateway?.env?.find((e) => e.name === 'SESSION_SECRET')?.valueFrom?.secretKeyRef;
    expect(ref).toEqual({ name: 'gateway-session', key: 'SESSION_SECRET' });
    expect(Object.keys(find('Secret', 'gateway-session').stringData ?? {})).toEqual(['SESSION_SECRET']);
    expect(JSON.stringify(config)).not.toContain('SESSION_SECRET');
  });

  it('should share one Redis between the replicas through a Service of the example', () => {
    // REDIS_URL carries the password: set on the container from the Secret (test/deploy/manifests.test.ts).
    const value = gateway?.env?.find((e) => e.name === 'REDIS_URL')?.value ?? '';
    const url = new URL(value.replace('$(REDIS_PASSWORD)', 'password'));
    expect(loadConfig({ ...config, SESSION_SECRET: 's'.repeat(48), REDIS_URL: url.href }).redisUrl).toBe(
      url.href,
    );
    const service = find('Service', url.hostname);
    expect(service.spec?.ports?.map((p) => p.port)).toContain(Number(url.port));
  });

  it('should hold settings the gateway accepts in production', () => {
    expect(gateway?.envFrom).toEqual([{ configMapRef: { name: 'gateway-config' } }]);
    const loaded = loadConfig({ ...config, SESSION_SECRET: 's'.repeat(48) });
    expect(loaded).toMatchObject({ production: true, host: '0.0.0.0', port: DEFAULT_PORT });
    expect(loaded.upstream.kind).toBe('remote');
    // The front-end's proxy in the pod, the direct peer; the Ingress controller's pod network (a CIDR)
    // believed only behind it, so that no other pod of that network can name its address.
    expect(loaded.trustedProxies).toEqual(['127.0.0.1', '::1']);
    expect(loaded.trustedOuterProxies).toEqual([expect.stringMatching(/^[\d.]+\/\d+$/)]);
  });

  it('should give the pod longer to stop than the gateway needs to drain', () => {
    const { shutdown } = loadConfig({ ...config, SESSION_SECRET: 's'.repeat(48) });
    const pod = (web.spec?.template?.spec.terminationGracePeriodSeconds ?? 30) * 1000;
    // The shutdown's bound, every step at its deadline, and the watchdog's half second after it.
    expect(pod).toBeGreaterThan(shutdownDeadlineMillis(shutdown.delayMillis, shutdown.graceMillis) + 500);
  });

  it("should hold the drain delay on the container the Service sends traffic to, within the gateway's own", () => {
    const { shutdown } = loadConfig({ ...config, SESSION_SECRET: 's'.repeat(48) });
    const targetPort = find('Service', 'web').spec?.ports?.[0]?.targetPort;
    const target = web.spec?.template?.spec.containers.find((c) =>
      c.ports?.some((p) => p.name === targetPort || p.containerPort === targetPort),
    );
    expect(target?.name).toBe('web');
    const preStopMillis = (target?.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
    // Long enough for the endpoints, kube-proxy and the Ingress to stop sending to the pod.
    expect(preStopMillis).toBeGreaterThanOrEqual(5_000);
    // The gateway gets SIGTERM at once (no preStop) and still takes new requests for SHUTDOWN_DELAY_MS:
    // longer than the front-end keeps accepting, so the front-end's last requests find it open.
    expect(gateway?.lifecycle).toBeUndefined();
    expect(shutdown.delayMillis).toBeGreaterThan(preStopMillis);
    const pod = (web.spec?.template?.spec.terminationGracePeriodSeconds ?? 30) * 1000;
    expect(pod).toBeGreaterThan(preStopMillis + shutdown.graceMillis);
  });

  it("should give the front-end's proxy, the peer of every connection, all of the connections", () => {
    const { connectionLimits } = loadConfig({ ...config, SESSION_SECRET: 's'.repeat(48) });
    expect(connectionLimits.maxConnectionsPerAddress).toBe(connectionLimits.maxConnections);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const runtime = instructions.slice(instructions.findLastIndex((line) => line.startsWith('FROM ')));

  it('should build in stages and run on Node 24', () => {
    const stages = instructions.filter((line) => line.startsWith('FROM '));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    // By tag here; by digest (`@sha256:…`) once an operator pins them (deploy/README.md).
    for (const stage of stages) expect(stage).toMatch(/^FROM node:24[-.\w]*(@sha256:[0-9a-f]{64})? AS \w+$/);
  });

  it('should install no dev dependencies and run as a non-root user', () => {
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const user = runtime.find((line) => line.startsWith('USER '));
    // Numeric: the kubelet cannot check a user name against runAsNonRoot (test/deploy/manifests.test.ts).
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
  });

  it('should prune what a production start never loads, in the layer that installs it', () => {
    // scripts/prune-runtime-modules.ts: the explorer's tree but its served files, recheck's agents
    // (test/deploy/runtime-modules.test.ts); in one RUN, so no layer of the image carries them.
    const install = instructions.find((line) => line.includes('npm ci --omit=dev')) ?? '';
    expect(install).toMatch(/npm ci --omit=dev .*&& node scripts\/prune-runtime-modules\.ts \/app /);
    expect(readFileSync('.dockerignore', 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['!scripts/prune-runtime-modules.ts', '!support/runtime-modules.ts']),
    );
  });

  it('should expose the default port and start the command', () => {
    expect(runtime).toContain(`EXPOSE ${DEFAULT_PORT}`);
    // The image starts the bundle as `npm start` does in production (same Node flags, scripts/start.js).
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const startArgs = (pkg.scripts.start ?? '').split(/\s+/);
    expect(startArgs.at(-1)).toBe('scripts/start.js');
    expect(readFileSync('scripts/start.js', 'utf8')).toContain("new URL('../dist/main.js', import.meta.url)");
    const imageArgs = [...startArgs.slice(0, -1), 'dist/main.js'];
    expect(runtime.find((line) => line.startsWith('CMD '))).toBe(
      `CMD ${JSON.stringify(imageArgs).replaceAll(',', ', ')}`,
    );
  });

  it('should ship only what the runtime needs (.dockerignore)', () => {
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['node_modules', '.git', 'test', 'bench']) expect(ignored).toContain(entry);
  });

  it('should leave the emulator out of the image', () => {
    // What any stage (the build stage's sources, the runtime's files) copies from the build context, minus
    // .dockerignore; the bundle itself is checked to hold no emulator code in test/build/bundle.test.ts.
    const ignored = readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    const copied = instructions
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
      .flatMap((line) =>
        line
          .split(/\s+/)
          .filter((word) => !word.startsWith('--'))
          .slice(1, -1),
      );
    const files = copied
      .filter((source) => !ignored.includes(source))
      .flatMap((source) =>
        statSync(source).isDirectory()
          ? readdirSync(source, { recursive: true, encoding: 'utf8' }).map((f) => join(source, f))
          : [source],
      );
    expect(files).toContain(join('src', 'main.ts'));
    expect(ignored).toContain('emulator');
    expect(files.filter((file) => /(^|\/)emulator(\/|$)/.test(file))).toEqual([]);
    // The gateway reaches the emulator only through main.ts's dynamic import, never a static one.
    const staticImports = files
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /^import [^;]*from '[^']*emulator\//m.test(readFileSync(file, 'utf8')));
    expect(staticImports).toEqual([]);
  });

  it('should import only production dependencies from the sources it ships', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    const imported = new Set<string>();
    for (const file of sources) {
      const text = readFileSync(join('src', file), 'utf8');
      for (const match of text.matchAll(/^import (?!type )[^;]*?from '([^'.][^']*)'/gm)) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? ''));
      }
    }
    expect([...imported].filter((name) => !(name in pkg.dependencies))).toEqual([]);
  });

  describe('HEALTHCHECK', () => {
    const line = runtime.find((l) => l.startsWith('HEALTHCHECK ')) ?? '';
    const command = JSON.parse(line.slice(line.indexOf('CMD ') + 4)) as string[];

    it('should need no shell and no tools but node', () => {
      expect(command[0]).toBe('node');
      expect(command.join(' ')).not.toMatch(/\b(sh|bash|curl|wget)\b/);
    });

    // Asynchronously: the gateway answering the check runs in this very process.
    const run = (port: string) =>
      new Promise<number | null>((done) => {
        execFile(NODE, command.slice(1), { env: { PORT: port }, timeout: 120_000 }, (error) => {
          done(error === null ? 0 : typeof error.code === 'number' ? error.code : null);
        });
      });

    it('should pass against a running gateway and fail when nothing answers', async () => {
      expect(await run(new URL(h.graphqlUrl).port)).toBe(0);
      expect(await run('1')).toBe(1);
    });
  });
});
