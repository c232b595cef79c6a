/**
 * The Pod Security Standards' "restricted" profile (which includes "baseline"), as the admission controller
 * of a namespace labelled `pod-security.kubernetes.io/enforce: restricted` applies it to a pod spec, checked
 * in because no maintained npm package implements it. One function per control of
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/ (Kubernetes 1.30+); each violation
 * names its control and where it is, as `kubectl` prints them.
 */
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IContainer } from 'kubernetes-models/v1/Container';

/** The containers of every kind, with the path of each (`containers[0]`, `initContainers[1]`). */
function allContainers(spec: IPodSpec): [string, IContainer][] {
  return [
    ...(spec.initContainers ?? []).map((c, i): [string, IContainer] => [`initContainers[${i}] ${c.name}`, c]),
    ...spec.containers.map((c, i): [string, IContainer] => [`containers[${i}] ${c.name}`, c]),
    ...(spec.ephemeralContainers ?? []).map((c, i): [string, IContainer] => [
      `ephemeralContainers[${i}] ${c.name}`,
      c as IContainer,
    ]),
  ];
}

/** Baseline: the capabilities a container may add (restricted narrows it to NET_BIND_SERVICE). */
const RESTRICTED_ADDABLE = new Set(['NET_BIND_SERVICE']);
/** Baseline: the sysctls namespaced and safe enough to set. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
/** Baseline: the SELinux types a pod may ask for. */
const SELINUX_TYPES = new Set(['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
/** Restricted: the volume types allowed (hostPath, nfs, iscsi… are not). */
const VOLUME_TYPES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

/** Every violation of the restricted profile in `spec` (and the pod's `annotations`); empty when admitted. */
export function restrictedViolations(spec: IPodSpec, annotations: Record<string, string> = {}): string[] {
  const out: string[] = [];
  const pod = spec.securityContext ?? {};
  const containers = allContainers(spec);

  // ── baseline ──
  if (pod.windowsOptions?.hostProcess === true) out.push('hostProcess: pod');
  for (const [where, c] of containers) {
    if (c.securityContext?.windowsOptions?.hostProcess === true) out.push(`hostProcess: ${where}`);
  }
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
    if (spec[field] === true) out.push(`host namespaces: ${field}=true`);
  }
  for (const [where, c] of containers) {
    if (c.securityContext?.privileged === true) out.push(`privileged: ${where}`);
    for (const port of c.ports ?? []) {
      if ((port.hostPort ?? 0) !== 0) out.push(`hostPort: ${where} ${port.hostPort}`);
    }
    if ((c.securityContext?.procMount ?? 'Default') !== 'Default') out.push(`procMount: ${where}`);
  }
  for (const volume of spec.volumes ?? []) {
    if (volume.hostPath !== undefined) out.push(`hostPath volumes: ${volume.name}`);
    const types = Object.keys(volume).filter((key) => key !== 'name');
    for (const type of types) {
      if (!VOLUME_TYPES.has(type)) out.push(`restricted volume types: ${volume.name} (${type})`);
    }
  }
  const appArmor = [
    pod.appArmorProfile?.type,
    ...containers.map(([, c]) => c.securityContext?.appArmorProfile?.type),
  ];
  if (appArmor.some((type) => type !== undefined && type !== 'RuntimeDefault' && type !== 'Localhost')) {
    out.push('AppArmor: profile other than RuntimeDefault or Localhost');
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith('container.apparmor.security.beta.kubernetes.io/')) {
      if (value !== 'runtime/default' && !value.startsWith('localhost/'))
        out.push(`AppArmor: ${key}=${value}`);
    }
  }
  for (const options of [
    pod.seLinuxOptions,
    ...containers.map(([, c]) => c.securityContext?.seLinuxOptions),
  ]) {
    if (options === undefined) continue;
    if (options.type !== undefined && options.type !== '' && !SELINUX_TYPES.has(options.type)) {
      out.push(`seLinuxOptions: type ${options.type}`);
    }
    if ((options.user ?? '') !== '' || (options.role ?? '') !== '')
      out.push('seLinuxOptions: user or role set');
  }
  for (const sysctl of pod.sysctls ?? []) {
    if (!SAFE_SYSCTLS.has(sysctl.name)) out.push(`sysctls: ${sysctl.name}`);
  }

  // ── restricted ──
  for (const [where, c] of containers) {
    if (c.securityContext?.allowPrivilegeEscalation !== false) {
      out.push(`allowPrivilegeEscalation != false: ${where}`);
    }
    const caps = c.securityContext?.capabilities;
    if (!(caps?.drop ?? []).includes('ALL'))
      out.push(`unrestricted capabilities: ${where} does not drop ALL`);
    for (const added of caps?.add ?? []) {
      if (!RESTRICTED_ADDABLE.has(added)) out.push(`unrestricted capabilities: ${where} adds ${added}`);
    }
    // runAsNonRoot: the pod's, unless the container sets its own; a container may not set false.
    const nonRoot = c.securityContext?.runAsNonRoot ?? pod.runAsNonRoot;
    if (nonRoot !== true) out.push(`runAsNonRoot != true: ${where}`);
    if (c.securityContext?.runAsUser === 0) out.push(`runAsUser=0: ${where}`);
    const seccomp = c.securityContext?.seccompProfile?.type ?? pod.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
      out.push(`seccompProfile: ${where} must be RuntimeDefault or Localhost (is ${seccomp ?? 'unset'})`);
    }
  }
  if (pod.runAsUser === 0) out.push('runAsUser=0: pod');
  if (pod.seccompProfile?.type === 'Unconfined') out.push('seccompProfile: pod is Unconfined');
  return out;
}

/**
 * Why the kubelet would refuse to start `container` (`CreateContainerConfigError`), given the USER of its
 * image (`1000`, `1000:1000`, `node`, or undefined for root); undefined when it starts. With runAsNonRoot,
 * the kubelet needs a uid it can compare with 0: the effective runAsUser, or else a numeric image USER.
 */
export function kubeletUserRefusal(
  spec: IPodSpec,
  container: IContainer,
  imageUser: string | undefined,
): string | undefined {
  const nonRoot = container.securityContext?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot;
  if (nonRoot !== true) return undefined;
  const runAsUser = container.securityContext?.runAsUser ?? spec.securityContext?.runAsUser;
  if (runAsUser !== undefined) {
    return runAsUser === 0 ? "container's runAsUser breaks non-root policy" : undefined;
  }
  const user = (imageUser ?? '').split(':')[0] ?? '';
  if (user === '' || user === '0' || user === 'root') {
    return 'container has runAsNonRoot and image will run as root';
  }
  if (!/^\d+$/.test(user)) return `image has non-numeric user (${user}), cannot verify user is non-root`;
  return undefined;
}
