/** A session's tenant, as request lines and spans name it (never the user or a token). */
export interface RequestTenant {
  application: string;
  /** `null` for a session without an organization. */
  organization: string | null;
}
