import type { UpstreamRecord } from '../../src/upstream/client/wire.ts';
import { EMULATOR_USERS } from '../identity/demo-users.ts';
import { seedObjectId } from './object-id.ts';

/** The object types the emulator knows; reads and saves of any other `objectName` are refused. */
export const OBJECT_NAMES = ['com.example.LoanType', 'com.example.Customer', 'com.example.Order'] as const;

/** One object as it enters the store, before it gets a sequence number. */
export interface SeedObject {
  objectName: string;
  applicationCode: string;
  organizationCode: string;
  record: UpstreamRecord;
  createdAt: string;
  createdBy: string;
}

/** How many objects of each type the demo tenant (application `demo`, organization `acme`) starts with. */
export const DEMO_SEED_COUNTS = {
  'com.example.LoanType': 30,
  'com.example.Customer': 100,
  'com.example.Order': 250,
} as const;

const LOAN_KINDS = ['Home', 'Car', 'Student', 'Business', 'Personal', 'Boat'];
const LOAN_TERMS = ['Fixed', 'Variable', 'Green', 'Bridge', 'Express'];
const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Barbara',
  'Dennis',
  'Margaret',
  'Ken',
  'Frances',
  'John',
];
const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Liskov', 'Ritchie', 'Hamilton', 'Thompson'];
const PLACES: readonly (readonly [string, string])[] = [
  ['Lisbon', 'PT'],
  ['Berlin', 'DE'],
  ['Paris', 'FR'],
  ['Oslo', 'NO'],
  ['Austin', 'US'],
  ['Kyoto', 'JP'],
  ['Nairobi', 'KE'],
];
const ORDER_STATUSES = ['NEW', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
const TYPE_CODES = { 'com.example.LoanType': 1, 'com.example.Customer': 2, 'com.example.Order': 3 } as const;

/** Tenants with seed data: the demo tenant in full, the others with a handful of objects. */
const TENANTS = [
  { code: 1, applicationCode: 'demo', organizationCode: 'acme', scale: 1 },
  { code: 2, applicationCode: 'demo', organizationCode: 'globex', scale: 0 },
  { code: 3, applicationCode: 'crm', organizationCode: 'initech', scale: 0 },
] as const;
const SMALL_COUNTS = {
  'com.example.LoanType': 3,
  'com.example.Customer': 5,
  'com.example.Order': 5,
} as const;

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length] as T;
const cents = (value: number): number => Math.round(value * 100) / 100;

/** The first user of a tenant creates its seed data. */
function creatorOf(applicationCode: string, organizationCode: string): string {
  const user = EMULATOR_USERS.find(
    (u) => u.applicationCode === applicationCode && u.organizationCodes[0] === organizationCode,
  );
  return user?.userId ?? 'system';
}

/**
 * The seed data of every tenant, deterministic: the same ids and field values on every start (no
 * randomness), and orders that point at customers of their own tenant.
 */
export function createSeedObjects(): SeedObject[] {
  const objects: SeedObject[] = [];
  let minute = 0;
  for (const tenant of TENANTS) {
    const counts = tenant.scale === 1 ? DEMO_SEED_COUNTS : SMALL_COUNTS;
    const createdBy = creatorOf(tenant.applicationCode, tenant.organizationCode);
    const add = (
      objectName: keyof typeof TYPE_CODES,
      index: number,
      fields: Record<string, unknown>,
    ): string => {
      const _id = seedObjectId(tenant.code, TYPE_CODES[objectName], index);
      // Seed objects were created a minute apart, starting 2024-01-15T00:00:00Z.
      const createdAt = new Date(Date.UTC(2024, 0, 15, 0, minute++)).toISOString();
      const { applicationCode, organizationCode } = tenant;
      objects.push({
        objectName,
        applicationCode,
        organizationCode,
        record: { _id, ...fields },
        createdAt,
        createdBy,
      });
      return _id;
    };

    for (let i = 0; i < counts['com.example.LoanType']; i++) {
      const kind = pick(LOAN_KINDS, i);
      const term = pick(LOAN_TERMS, Math.floor(i / LOAN_KINDS.length));
      add('com.example.LoanType', i, {
        loanType: `${kind} ${term}`,
        description: `${term} rate ${kind.toLowerCase()} loan (${tenant.organizationCode})`,
        rate: cents(2.5 + ((i * 37) % 90) / 10),
      });
    }

    const customers: { id: string; name: string }[] = [];
    for (let i = 0; i < counts['com.example.Customer']; i++) {
      const first = pick(FIRST_NAMES, i);
      const last = pick(LAST_NAMES, Math.floor(i / FIRST_NAMES.length) + i);
      const [city, country] = pick(PLACES, i * 3);
      const name = `${first} ${last}`;
      const id = add('com.example.Customer', i, {
        name,
        email: `${first}.${last}.${i}@${tenant.organizationCode}.example.com`.toLowerCase(),
        mobile: `555${String(2000 + tenant.code * 1000 + i).padStart(4, '0')}`,
        address: { city, country },
      });
      customers.push({ id, name });
    }

    for (let i = 0; i < counts['com.example.Order']; i++) {
      const customer = pick(customers, i * 37);
      add('com.example.Order', i, {
        number: `ORD-${tenant.code}${String(i + 1).padStart(5, '0')}`,
        total: cents(10 + ((i * 7919) % 100_000) / 100),
        status: pick(ORDER_STATUSES, i),
        customer: { id: customer.id, name: customer.name },
      });
    }
  }
  return objects;
}
