/**
 * An emulator user of its own whose name differs from the demo's `ops` in case only (`Ops`): the emulator
 * compares names exactly, as a case-sensitive upstream does, so the two are two accounts. The login tests
 * use it as the attacker who owns the twin of its victim's name.
 */
import type { EmulatorUser } from '../../emulator/index.ts';

export const CASE_TWIN_USER: EmulatorUser = {
  userId: '64b7f0c2a1e0d00000000077',
  username: 'Ops',
  password: 'twin-password',
  mobile: '5550177',
  applicationCode: 'demo',
  organizationCodes: ['globex'],
};
