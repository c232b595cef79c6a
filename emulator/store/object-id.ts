import { randomBytes } from 'node:crypto';

const hex = (value: number, digits: number): string =>
  value.toString(16).padStart(digits, '0').slice(-digits);

/** Seed ids start at this (fixed) creation second, 2024-01-15T00:00:00Z, so every start yields the same ids. */
const SEED_EPOCH_SECONDS = 1_705_276_800;

/**
 * The id of seed object number `index` of one type in one tenant. Deterministic: the same arguments give the
 * same id on every start, and distinct (tenant, type, index) triples give distinct ids.
 */
export function seedObjectId(tenantCode: number, typeCode: number, index: number): string {
  return (
    hex(SEED_EPOCH_SECONDS + index, 8) + hex(tenantCode, 2) + hex(typeCode, 2) + 'e0c0de' + hex(index, 6)
  );
}

/** Makes fresh ObjectId-like ids: creation second, a random per-generator part, and a counter. */
export function createIdGenerator(nowMillis: () => number): () => string {
  const processPart = randomBytes(5).toString('hex');
  let counter = randomBytes(3).readUIntBE(0, 3);
  return () => {
    counter = (counter + 1) % 0x1000000;
    return hex(Math.floor(nowMillis() / 1000), 8) + processPart + hex(counter, 6);
  };
}
