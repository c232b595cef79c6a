/**
 * The bench's users: one per connection of the per-session workloads, so that no two connections share a
 * session (and with it the gateway's coalescing of identical reads), as real users never do. They live in
 * the demo tenant beside the demo user and are given to the emulator at start (`bench-emulator.ts`).
 */
import type { EmulatorUser } from '../emulator/identity/demo-users.ts';
import { DEMO } from '../emulator/identity/demo-users.ts';

/** Sessions (and connections) of W1–W4: 32, so every connection is its own user. */
export const SESSIONS = 32;

/** `count` users of the demo tenant: `bench-01` … with the password `bench-password`. */
export function benchUsers(count = SESSIONS): EmulatorUser[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    return {
      userId: `64b7f0c2a1e0d0000000b${String(index + 1).padStart(3, '0')}`,
      username: `bench-${number}`,
      password: 'bench-password',
      mobile: `5559${String(index + 1).padStart(3, '0')}`,
      applicationCode: DEMO.applicationCode,
      organizationCodes: [DEMO.organizationCode],
    };
  });
}

/** A user the bench logged in to the emulator before the run: how it logs in, and its upstream token. */
export interface BenchSession {
  username: string;
  password: string;
  upstreamToken: string;
}
