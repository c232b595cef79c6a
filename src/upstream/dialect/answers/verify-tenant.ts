/**
 * Tenant isolation, verified on every answer rather than assumed: the contract makes `organizationCode`
 * optional on reads, and an upstream that ignores it serves any organization's records to any session. A
 * record carrying an organization (at `UPSTREAM_TENANT_FIELD`) other than the session's is never served: the
 * read fails with `tenant_mismatch` (`UPSTREAM_TENANT_MISMATCH`), and the gateway is told once per read
 * (`onMismatch`: a security log line and a metric). A record without the field, or a session without an
 * organization, has nothing to compare.
 */
import { UpstreamError } from '../../../errors/upstream-error.ts';
import type { UpstreamRecord } from '../../client/types.ts';
import { valueAtPath } from './verify-filter-answer.ts';

/** What the gateway learns of a record of another organization (no secret: organization codes and names). */
export interface TenantMismatch {
  operation: string;
  objectName: string;
  /** The session's organization. */
  expected: string;
  /** The organization the record carries (as text). */
  received: string;
  /** The tenant field (`UPSTREAM_TENANT_FIELD`). */
  field: string;
}

/** The tenant check of one request: the session's organization and where records carry theirs. */
export interface TenantCheck {
  organizationCode: string | undefined;
  /** `UPSTREAM_TENANT_FIELD`, split at its dots. */
  path: readonly string[];
  onMismatch: ((mismatch: TenantMismatch) => void) | undefined;
}

/** The text of an organization value: a string as is, a number or boolean as JSON writes it. */
function organizationText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Throws `tenant_mismatch` when a record of `records` carries another organization than the session's;
 * tells `check.onMismatch` first.
 */
export function verifyTenant(
  operation: string,
  objectName: string,
  records: readonly UpstreamRecord[],
  check: TenantCheck,
): void {
  const expected = check.organizationCode;
  if (expected === undefined || expected === '') return;
  for (const record of records) {
    const held = valueAtPath(record, check.path);
    if (held === undefined || held === null) continue;
    const received = organizationText(held) ?? JSON.stringify(held);
    if (received === expected) continue;
    const field = check.path.join('.');
    check.onMismatch?.({ operation, objectName, expected, received, field });
    throw new UpstreamError(
      'tenant_mismatch',
      `a record of ${objectName} answered to a session of organization ${expected} carries ${field} ${received}`,
      { operation },
    );
  }
}
