/**
 * Types of the upstream's wire format, as `docs/upstream-contract.md` and `docs/design.md` describe it.
 *
 * This is the only module the emulator and the upstream client share, and it holds types only: a bug in
 * how one side builds or reads a message cannot hide on both sides of the wire.
 */

/** One condition of a filter command. `matches` is the only operator the upstream documents. */
export interface WireCriterion {
  fieldName: string;
  operator: string;
  value: string;
}

/** The `filterCommand` query parameter of getObject and getAll, before `JSON.stringify`. */
export interface WireFilterCommand {
  criteria: WireCriterion[];
}

/** A stored object as the upstream returns it: `_id` plus the fields of its type. */
export interface WireRecord {
  _id: string;
  [field: string]: unknown;
}

/** `POST {api_url}/v1/user/login` body (application/json). */
export interface WireJsonLoginRequest {
  username: string;
  password: string;
}

/** `POST {base_url}/app/login.jsp` body fields (application/x-www-form-urlencoded). */
export interface WireFormLoginRequest {
  username: string;
  password: string;
}

/** Every upstream answer carries a status; errors add a plain-language message. */
export interface WireErrorResponse {
  status: 'error';
  message: string;
  /** Only the save operation documents it (`SAVE_ERR_401`). */
  error_code?: string;
}

/** JSON login success. */
export interface WireJsonLoginSuccess {
  status: 'success';
  token: string;
  message?: string;
}

/** Form login success: `token` is optional in the document. */
export interface WireFormLoginSuccess {
  status: 'success';
  userId: string;
  username: string;
  token?: string;
  message?: string;
}

/** getObject / getAll success. getObject's `data` holds zero or one record (docs/design.md). */
export interface WireReadSuccess {
  status: 'success';
  data: WireRecord[];
  totalCount: number;
}

/** Metadata success: `data`'s shape is unknown to the gateway and passed through. */
export interface WireMetadataSuccess {
  status: 'success';
  data: unknown;
}

/** Save success. */
export interface WireSaveSuccess {
  status: 'success';
  message: string;
  savedObjectId: string;
}

/** `POST {server_url}/studio/jsonp/save?callback=…` body. */
export interface WireSaveRequest {
  objectName: string;
  data: Record<string, unknown>;
  apiToken: string;
  applicationCode: string;
  organizationCode: string;
  callback: string;
}

/** Update success. */
export interface WireUpdateSuccess {
  status: 'success';
  message: string;
  savedObjectId: string;
  updatedFields: Record<string, unknown>;
}

/** The seven upstream operations, as named in counters, metrics and logs. */
export type WireOperation =
  'loginJson' | 'loginForm' | 'metadata' | 'getObject' | 'getAll' | 'save' | 'update';
