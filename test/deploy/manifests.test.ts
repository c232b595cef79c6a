/**
 * The manifests of deploy/kubernetes as a platform team applies them: every document valid against the
 * Kubernetes API schemas (kubernetes-models: the OpenAPI schemas of the API server, run with ajv), every pod
 * admitted by a Pod Security "restricted" namespace (`pod-security-restricted.ts`), every container started
 * by the kubelet (a numeric user it can check), Redis behind a password and a NetworkPolicy, and a
 * PodDisruptionBudget and an autoscaler for the pods that serve.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { kubeletUserRefusal, restrictedViolations } from './pod-security-restricted.ts';

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

describe('Kubernetes API schemas', () => {
  it.each(manifests.map((m) => [`${m.file}: ${m.manifest.kind} ${m.manifest.metadata.name}`, m.manifest]))(
    'should accept %s',
    async (_name, manifest) => {
      const group = manifest.apiVersion.includes('/') ? manifest.apiVersion : `v1`;
      const module = (await import(`kubernetes-models/${group}/${manifest.kind}`)) as Record<
        string,
        new (data: unknown) => { validate(): void }
      >;
      const Model = module[manifest.kind];
      expect(Model).toBeDefined();
      expect(() => {
        new Model!(manifest).validate();
      }).not.toThrow();
    },
  );

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
  it('should keep one web pod through voluntary disruptions', () => {
    expect(find('PodDisruptionBudget', 'web').spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'web' } },
    });
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
