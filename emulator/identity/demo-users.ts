/**
 * The emulator's fixed user directory. Usernames are unique across applications because the login
 * operations take no application code: the user decides the application.
 */

/** A user the emulator knows, with the tenants it may act in. */
export interface EmulatorUser {
  /** Stable id, answered as `userId` by the form login and written as `createdBy` in metadata. */
  readonly userId: string;
  readonly username: string;
  readonly password: string;
  /** Registered mobile number: accepted instead of the username by the form login and on reads. */
  readonly mobile: string;
  readonly applicationCode: string;
  /** Organizations the user may read and write; the first is the default when none is sent. */
  readonly organizationCodes: readonly string[];
}

/** The demo login of docs/design.md: application `demo`, organization `acme`. */
export const DEMO = {
  applicationCode: 'demo',
  organizationCode: 'acme',
  username: 'demo',
  password: 'demo-password',
  mobile: '5550100',
} as const;

/**
 * Every user of the emulator. `demo` is the demo user of docs/design.md; `ops` lives in another organization of
 * the same application, `admin` belongs to both, and `crm` to another application, so that tenancy can
 * be tested from every side.
 */
export const EMULATOR_USERS: readonly EmulatorUser[] = [
  {
    userId: '64b7f0c2a1e0d00000000001',
    username: DEMO.username,
    password: DEMO.password,
    mobile: DEMO.mobile,
    applicationCode: DEMO.applicationCode,
    organizationCodes: [DEMO.organizationCode],
  },
  {
    userId: '64b7f0c2a1e0d00000000002',
    username: 'ops',
    password: 'ops-password',
    mobile: '5550101',
    applicationCode: 'demo',
    organizationCodes: ['globex'],
  },
  {
    userId: '64b7f0c2a1e0d00000000003',
    username: 'admin',
    password: 'admin-password',
    mobile: '5550102',
    applicationCode: 'demo',
    organizationCodes: ['acme', 'globex'],
  },
  {
    userId: '64b7f0c2a1e0d00000000004',
    username: 'crm',
    password: 'crm-password',
    mobile: '5550103',
    applicationCode: 'crm',
    organizationCodes: ['initech'],
  },
];
