/**
 * The manifests of deploy/kubernetes as a platform team applies them: every document valid against the
 * Kubernetes API schemas (kubernetes-models: the OpenAPI schemas of the API server, run with ajv), with no
 * field the schemas do not declare (`unknown-fields.ts`, as `kubectl apply --validate=strict`), every pod
 * admitted by a Pod Security "restricted" namespace (`pod-security-restricted.ts`), every container started
 * by the kubelet (a numeric user it can check), Redis behind a password and a NetworkPolicy, the web pods
 * behind their own NetworkPolicy, spread over nodes and zones, with a disruption budget that fits the
 * autoscaler and a scrape example.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { kubeletUserRefusal, restrictedViolations } from './pod-security-restricted.ts';
import { unknownFields, type ModelClass } from './unknown-fields.ts';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}
interface Workload extends Manifest {
  spec: { template: { metadata: { labels: Record<string, string> }; spec: IPodSpec } };
}

const DIR = 'deploy/kubernetes';
const files = readdirSync(DIR).filter((name) => name.endsWith('.yaml'));
const manifests = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((document) => ({
    file,
    manifest: document.toJS() as Manifest,
  })),
);
const workloads = manifests.map((m) => m.manifest).filter((m): m is Workload => m.kind === 'Deployment');
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.manifest.kind === kind && m.manifest.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name} in ${DIR}`);
  return found.manifest;
};
const podOf = (name: string): IPodSpec => (find('Deployment', name) as Workload).spec.template.spec;
const clone = <T>(value: T): T => structuredClone(value);
const web = podOf('web');

/** The runtime stage's USER of the Dockerfile: the gateway image's user. */
const imageUser = (dockerfile: string) =>
  /^USER (\S+)$/m.exec(dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')))?.[1];
const GATEWAY_IMAGE_USER = imageUser(readFileSync('Dockerfile', 'utf8'));

/** The kubernetes-models class of `manifest`'s kind. */
async function modelOf(manifest: Manifest): Promise<ModelClass> {
  const group = manifest.apiVersion.includes('/') ? manifest.apiVersion : `v1`;
  const module = (await import(`kubernetes-models/${group}/${manifest.kind}`)) as Record<string, ModelClass>;
  const Model = module[manifest.kind];
  if (Model === undefined) throw new Error(`no model for ${manifest.apiVersion} ${manifest.kind}`);
  return Model;
}

describe('Kubernetes API schemas', () => {
  it.each(manifests.map((m) => [`${m.file}: ${m.manifest.kind} ${m.manifest.metadata.name}`, m.manifest]))(
    'should accept %s, with no field the schema does not declare',
    async (_name, manifest) => {
      const Model = await modelOf(manifest);
      expect(() => {
        new Model(manifest).validate();
      }).not.toThrow();
      expect(unknownFields(Model, manifest)).toEqual([]);
    },
  );

  it('should refuse a misspelt or misplaced field, as strict field validation does', async () => {
    const broken = clone(find('Deployment', 'web')) as Workload & { spec: Record<string, unknown> };
    const pod = broken.spec.template.spec as IPodSpec & Record<string, unknown>;
    pod.terminationGracePeriodSecnds = 30;
    (pod.containers[0] as unknown as Record<string, unknown>).preStop = { sleep: { seconds: 5 } };
    broken.spec.replica = 3;
    const Model = await modelOf(broken);
    // The schema alone accepts them: the very reason for the unknown-field check.
    expect(() => {
      new Model(broken).validate();
    }).not.toThrow();
    expect(unknownFields(Model, broken).sort()).toEqual([
      'spec.replica',
      'spec.template.spec.containers.0.preStop',
      'spec.template.spec.terminationGracePeriodSecnds',
    ]);
  });

  it("should accept any key in a map (a ConfigMap's data, labels), which the schemas leave open", async () => {
    const config = clone(find('ConfigMap', 'gateway-config')) as Manifest & { data: Record<string, string> };
    config.data.ANY_SETTING = 'x';
    config.metadata.labels = { ...config.metadata.labels, team: 'shop' };
    expect(unknownFields(await modelOf(config), config)).toEqual([]);
  });

  it('should refuse a manifest with a value of the wrong type (the validator really validates)', async () => {
    const { Deployment } = await import('kubernetes-models/apps/v1/Deployment');
    const broken = clone(find('Deployment', 'web')) as Workload;
    (broken.spec.template.spec.containers[0] as unknown as { ports: unknown }).ports = [
      { containerPort: 'http' },
    ];
    expect(() => {
      new Deployment(broken as never).validate();
    }).toThrow(/containerPort/);
  });
});

describe('Pod Security "restricted"', () => {
  it('should ship the Deployments a restricted namespace needs: web and its Redis', () => {
    expect(workloads.map((w) => w.metadata.name).sort()).toEqual(['gateway-redis', 'web']);
  });

  it.each(workloads.map((w) => [w.metadata.name, w]))('should admit every pod of %s', (_name, workload) => {
    expect(restrictedViolations(workload.spec.template.spec)).toEqual([]);
  });

  it.each<[string, (spec: IPodSpec) => void, RegExp]>([
    [
      'privilege escalation allowed',
      (s) => delete s.containers[0]!.securityContext!.allowPrivilegeEscalation,
      /allowPrivilegeEscalation/,
    ],
    ['capabilities kept', (s) => (s.containers[1]!.securityContext!.capabilities = {}), /does not drop ALL/],
    [
      'a capability added',
      (s) => (s.containers[1]!.securityContext!.capabilities!.add = ['NET_ADMIN']),
      /adds NET_ADMIN/,
    ],
    [
      'no seccomp profile',
      (s) => {
        delete s.securityContext!.seccompProfile;
        delete s.containers[0]!.securityContext!.seccompProfile;
      },
      /seccompProfile: containers\[0\]/,
    ],
    [
      'seccomp Unconfined',
      (s) => (s.containers[1]!.securityContext!.seccompProfile = { type: 'Unconfined' }),
      /seccompProfile/,
    ],
    ['runAsNonRoot unset', (s) => delete s.securityContext!.runAsNonRoot, /runAsNonRoot/],
    [
      'a container runAsNonRoot false',
      (s) => (s.containers[0]!.securityContext!.runAsNonRoot = false),
      /runAsNonRoot != true: containers\[0\]/,
    ],
    ['runAsUser 0', (s) => (s.securityContext!.runAsUser = 0), /runAsUser=0: pod/],
    ['privileged', (s) => (s.containers[1]!.securityContext!.privileged = true), /privileged/],
    ['host network', (s) => (s.hostNetwork = true), /hostNetwork/],
    ['host PID', (s) => (s.hostPID = true), /hostPID/],
    ['a host port', (s) => (s.containers[1]!.ports![0]!.hostPort = 4000), /hostPort/],
    [
      'a hostPath volume',
      (s) => s.volumes!.push({ name: 'root', hostPath: { path: '/' } }),
      /hostPath volumes: root/,
    ],
    [
      'an nfs volume',
      (s) => s.volumes!.push({ name: 'share', nfs: { server: 'nfs', path: '/' } }),
      /restricted volume types: share/,
    ],
    [
      'an unsafe sysctl',
      (s) => (s.securityContext!.sysctls = [{ name: 'kernel.msgmax', value: '1' }]),
      /sysctls/,
    ],
    ['Unmasked /proc', (s) => (s.containers[0]!.securityContext!.procMount = 'Unmasked'), /procMount/],
    ['AppArmor Unconfined', (s) => (s.securityContext!.appArmorProfile = { type: 'Unconfined' }), /AppArmor/],
    ['a SELinux user', (s) => (s.securityContext!.seLinuxOptions = { user: 'system_u' }), /seLinuxOptions/],
  ])('should refuse a pod with %s', (_case, mutate, violation) => {
    const spec = clone(web);
    mutate(spec);
    expect(restrictedViolations(spec).join('\n')).toMatch(violation);
  });
});

describe('the kubelet starts every container (numeric users)', () => {
  it('should give the gateway image a numeric USER, the node image user 1000', () => {
    expect(GATEWAY_IMAGE_USER).toMatch(/^1000(:1000)?$/);
  });

  it('should set a numeric runAsUser and runAsGroup on every pod, so images that name a user start too', () => {
    for (const workload of workloads) {
      const { securityContext } = workload.spec.template.spec;
      expect(securityContext?.runAsUser).toEqual(expect.any(Number));
      expect(securityContext?.runAsGroup).toEqual(expect.any(Number));
      for (const container of workload.spec.template.spec.containers) {
        expect(kubeletUserRefusal(workload.spec.template.spec, container, 'node')).toBeUndefined();
      }
    }
  });

  it('should start the gateway on its image user alone, without the pod runAsUser', () => {
    const spec = clone(web);
    delete spec.securityContext!.runAsUser;
    const gateway = spec.containers.find((c) => c.name === 'gateway')!;
    expect(kubeletUserRefusal(spec, gateway, GATEWAY_IMAGE_USER)).toBeUndefined();
  });

  it('should refuse, as the kubelet does, runAsNonRoot with a named image user and no runAsUser', () => {
    const spec = clone(web);
    delete spec.securityContext!.runAsUser;
    const gateway = spec.containers.find((c) => c.name === 'gateway')!;
    expect(kubeletUserRefusal(spec, gateway, 'node')).toBe(
      'image has non-numeric user (node), cannot verify user is non-root',
    );
    expect(kubeletUserRefusal(spec, gateway, undefined)).toMatch(/will run as root/);
    expect(kubeletUserRefusal(spec, gateway, '0:0')).toMatch(/will run as root/);
    spec.securityContext!.runAsUser = 0;
    expect(kubeletUserRefusal(spec, gateway, '1000')).toMatch(/breaks non-root policy/);
  });

  it('should give every container a read-only root filesystem, /tmp on an emptyDir', () => {
    for (const workload of workloads) {
      const spec = workload.spec.template.spec;
      const emptyDirs = new Set((spec.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
      for (const container of spec.containers) {
        expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
        const writable = (container.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name));
        expect(writable.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('Redis', () => {
  const redis = podOf('gateway-redis');
  const container = redis.containers[0]!;

  it('should ask for a password from the gateway-redis Secret, never on its command line', () => {
    expect(container.env).toContainEqual({
      name: 'REDIS_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'gateway-redis', key: 'REDIS_PASSWORD' } },
    });
    const script = (container.command ?? []).join(' ');
    expect(script).toMatch(/redis-server - /);
    expect(script).toMatch(/requirepass \$REDIS_PASSWORD/);
    expect(container.args).toBeUndefined();
    expect(find('Secret', 'gateway-redis')).toMatchObject({
      stringData: { REDIS_PASSWORD: expect.any(String) },
    });
  });

  it('should give the gateway the same password in REDIS_URL, from the Secret, not from the ConfigMap', () => {
    const gateway = web.containers.find((c) => c.name === 'gateway')!;
    const env = gateway.env ?? [];
    const password = env.findIndex((e) => e.name === 'REDIS_PASSWORD');
    const url = env.findIndex((e) => e.name === 'REDIS_URL');
    expect(env[password]?.valueFrom?.secretKeyRef).toEqual({ name: 'gateway-redis', key: 'REDIS_PASSWORD' });
    // `$(REDIS_PASSWORD)` is expanded only from variables defined before it.
    expect(password).toBeLessThan(url);
    const value = new URL((env[url]?.value ?? '').replace('$(REDIS_PASSWORD)', 'p'));
    expect(value).toMatchObject({
      protocol: 'redis:',
      password: 'p',
      hostname: 'gateway-redis',
      port: '6379',
    });
    expect(JSON.stringify(find('ConfigMap', 'gateway-config'))).not.toMatch(/REDIS_URL|REDIS_PASSWORD/);
  });

  it('should admit only the gateway pods through its NetworkPolicy', () => {
    const policy = find('NetworkPolicy', 'gateway-redis') as Manifest & {
      spec: { podSelector: unknown; policyTypes: string[]; ingress: { from: unknown[]; ports: unknown[] }[] };
    };
    const redisLabels = (find('Deployment', 'gateway-redis') as Workload).spec.template.metadata.labels;
    const webLabels = (find('Deployment', 'web') as Workload).spec.template.metadata.labels;
    expect(policy.spec.podSelector).toEqual({ matchLabels: redisLabels });
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.ingress).toEqual([
      { from: [{ podSelector: { matchLabels: webLabels } }], ports: [{ protocol: 'TCP', port: 6379 }] },
    ]);
  });
});

describe('availability', () => {
  const webLabels = (find('Deployment', 'web') as Workload).spec.template.metadata.labels;

  it('should let voluntary disruptions take one web pod at a time, at every size the autoscaler runs', () => {
    // minAvailable: 1 would let a drain take 5 of 6 replicas at once.
    expect(find('PodDisruptionBudget', 'web').spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: webLabels },
    });
  });

  it('should spread the web pods over nodes (never two on one while another fits) and over zones', () => {
    const spread = web.topologySpreadConstraints ?? [];
    const byKey = Object.fromEntries(spread.map((c) => [c.topologyKey, c]));
    expect(byKey['kubernetes.io/hostname']).toMatchObject({
      maxSkew: 1,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: webLabels },
    });
    expect(byKey['topology.kubernetes.io/zone']).toMatchObject({
      maxSkew: 1,
      labelSelector: { matchLabels: webLabels },
    });
    // Counted per ReplicaSet, so a rolling update's surge pod is not held back by the old pods.
    for (const constraint of spread) expect(constraint.matchLabelKeys).toEqual(['pod-template-hash']);
  });

  it('should scale the web Deployment on CPU, never below its own replica count', () => {
    const hpa = find('HorizontalPodAutoscaler', 'web').spec as {
      scaleTargetRef: unknown;
      minReplicas: number;
      maxReplicas: number;
    };
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' });
    const replicas = (find('Deployment', 'web').spec as { replicas: number }).replicas;
    expect(hpa.minReplicas).toBe(replicas);
    expect(hpa.maxReplicas).toBeGreaterThan(hpa.minReplicas);
    // A CPU target needs a CPU request on every container of the pod.
    for (const container of web.containers) expect(container.resources?.requests?.cpu).toBeDefined();
  });
});

describe('the web pods NetworkPolicy', () => {
  interface Peer {
    namespaceSelector?: { matchLabels: Record<string, string> };
    podSelector?: { matchLabels: Record<string, string> };
    ipBlock?: { cidr: string };
  }
  interface Rule {
    from?: Peer[];
    to?: Peer[];
    ports: { protocol: string; port: number }[];
  }
  const policy = find('NetworkPolicy', 'web') as Manifest & {
    spec: { podSelector: unknown; policyTypes: string[]; ingress: Rule[]; egress: Rule[] };
  };
  const webPod = find('Deployment', 'web') as Workload;
  const portOf = (container: string, name: string) =>
    web.containers.find((c) => c.name === container)?.ports?.find((p) => p.name === name)?.containerPort;
  const namespaces = (rules: Rule[], port: number) =>
    rules
      .filter((r) => r.ports.some((p) => p.port === port))
      .flatMap((r) => (r.from ?? r.to ?? []).map((p) => p.namespaceSelector?.matchLabels));

  it('should select the web pods and restrict both directions', () => {
    expect(policy.spec.podSelector).toEqual({ matchLabels: webPod.spec.template.metadata.labels });
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it("should admit only the Ingress controller's namespace to the front-end, and Prometheus to the gateway", () => {
    const service = find('Service', 'web').spec as { ports: { targetPort: string }[] };
    const front = portOf('web', service.ports[0]!.targetPort);
    const gatewayPort = portOf('gateway', 'gateway');
    expect(front).toBe(8080);
    expect(policy.spec.ingress.flatMap((r) => r.ports.map((p) => p.port)).sort()).toEqual(
      [front, gatewayPort].sort(),
    );
    expect(namespaces(policy.spec.ingress, front!)).toEqual([
      { 'kubernetes.io/metadata.name': 'ingress-nginx' },
    ]);
    expect(namespaces(policy.spec.ingress, gatewayPort!)).toEqual([
      { 'kubernetes.io/metadata.name': 'monitoring' },
    ]);
  });

  it('should let the pods reach DNS, Redis, the OTLP collector and the upstream over HTTPS, nothing else', () => {
    const egress = policy.spec.egress;
    const redisLabels = (find('Deployment', 'gateway-redis') as Workload).spec.template.metadata.labels;
    expect(egress.flatMap((r) => r.ports.map((p) => `${p.protocol}/${p.port}`)).sort()).toEqual(
      ['UDP/53', 'TCP/53', 'TCP/6379', 'TCP/4317', 'TCP/4318', 'TCP/443'].sort(),
    );
    expect(egress.find((r) => r.ports.some((p) => p.port === 6379))?.to).toEqual([
      { podSelector: { matchLabels: redisLabels } },
    ]);
    expect(egress.find((r) => r.ports.some((p) => p.port === 53))?.to?.[0]?.podSelector).toEqual({
      matchLabels: { 'k8s-app': 'kube-dns' },
    });
  });
});

describe('scrape example', () => {
  const template = (
    find('Deployment', 'web') as Workload & {
      spec: { template: { metadata: { annotations?: Record<string, string> } } };
    }
  ).spec.template;
  const gatewayPort = web.containers.find((c) => c.name === 'gateway')?.ports?.[0];

  it("should annotate the web pods with the gateway's metrics port and path", () => {
    expect(template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(gatewayPort?.containerPort),
      'prometheus.io/path': '/metrics',
    });
  });

  it('should ship an optional PodMonitor for the web pods, on the named gateway port', () => {
    const [monitor] = parseAllDocuments(readFileSync(join(DIR, 'optional/web-podmonitor.yaml'), 'utf8')).map(
      (d) => d.toJS() as Manifest & { spec: Record<string, unknown> },
    );
    expect(monitor).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor' });
    // The operator's own schema is not installed here: its fields are checked by name.
    expect(monitor!.spec).toEqual({
      selector: { matchLabels: template.metadata.labels },
      podMetricsEndpoints: [{ port: gatewayPort?.name, path: '/metrics', interval: '15s' }],
    });
  });
});
