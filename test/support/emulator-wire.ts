/**
 * A tiny client for the emulator tests: speaks the wire format directly (no code from src/upstream),
 * and decodes JSONP with a regular expression and JSON.parse, never by evaluating it.
 */
import { DEMO, type RunningEmulator } from '../../emulator/index.ts';

/** A decoded answer: HTTP status, content type, raw body, and the JSON inside it (if any). */
export interface WireAnswer {
  status: number;
  contentType: string;
  body: string;
  json: Record<string, unknown>;
}

const escapeName = (name: string): string => name.replaceAll('$', '\\$');

/** The JSON inside `body`, wrapped in `callback` in either wrapper style. Throws when it is not. */
export function unwrapJsonp(body: string, callback: string): Record<string, unknown> {
  const name = escapeName(callback);
  const plain = new RegExp(`^${name}\\(([\\s\\S]*)\\);$`).exec(body);
  const guard = new RegExp(`^/\\*\\*/ typeof ${name} === 'function' && ${name}\\(([\\s\\S]*)\\);$`).exec(
    body,
  );
  const inner = plain?.[1] ?? guard?.[1];
  if (inner === undefined) throw new Error(`not JSONP for ${callback}: ${body.slice(0, 200)}`);
  return JSON.parse(inner) as Record<string, unknown>;
}

async function decode(response: Response, callback: string | undefined): Promise<WireAnswer> {
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let json: Record<string, unknown> = {};
  if (contentType.startsWith('application/javascript') && callback !== undefined)
    json = unwrapJsonp(body, callback);
  else if (contentType.startsWith('application/json')) json = JSON.parse(body) as Record<string, unknown>;
  return { status: response.status, contentType, body, json };
}

/** A user's credentials for reads, as the gateway would send them. */
export interface Credentials {
  username: string;
  apiToken: string;
  applicationCode: string;
  organizationCode?: string;
}

/** Logs in with the JSON login and answers the read credentials. */
export async function login(
  emulator: RunningEmulator,
  username: string = DEMO.username,
  password: string = DEMO.password,
  applicationCode: string = DEMO.applicationCode,
): Promise<Credentials> {
  const answer = await postJson(emulator, '/v1/user/login', { username, password });
  if (typeof answer.json.token !== 'string') throw new Error(`login failed: ${answer.body}`);
  return { username, apiToken: answer.json.token, applicationCode };
}

/** POSTs a JSON body and decodes the plain JSON (or, with a callback, JSONP) answer. */
export async function postJson(
  emulator: RunningEmulator,
  path: string,
  body: unknown,
  callback?: string,
): Promise<WireAnswer> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return decode(response, callback);
}

/** Saves `data` as a new `objectName` object (JSONP, callback `cb`) with `credentials`' token and tenant. */
export function saveObject(
  emulator: RunningEmulator,
  credentials: Pick<Credentials, 'apiToken' | 'applicationCode'> & { organizationCode: string },
  objectName: string,
  data: Record<string, unknown>,
): Promise<WireAnswer> {
  const { apiToken, applicationCode, organizationCode } = credentials;
  return postJson(
    emulator,
    '/studio/jsonp/save?callback=cb',
    { objectName, data, apiToken, applicationCode, organizationCode },
    'cb',
  );
}

/** POSTs a form body to the form login. */
export async function postForm(emulator: RunningEmulator, body: string): Promise<WireAnswer> {
  const response = await fetch(`${emulator.url}/app/login.jsp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return decode(response, undefined);
}

/** GETs a JSONP operation with the given query parameters (callback `cb` unless given). */
export async function getJsonp(
  emulator: RunningEmulator,
  path: string,
  params: Credentials | Partial<Record<string, string>>,
): Promise<WireAnswer> {
  const query = new URLSearchParams();
  const entries: [string, unknown][] = Object.entries({ callback: 'cb', ...params });
  for (const [key, value] of entries) if (typeof value === 'string') query.set(key, value);
  const response = await fetch(`${emulator.url}${path}?${query.toString()}`);
  return decode(response, query.get('callback') ?? undefined);
}

/** A filterCommand parameter from `[fieldName, value]` pairs, operator `matches`. */
export function filter(...criteria: [string, string][]): string {
  return JSON.stringify({
    criteria: criteria.map(([fieldName, value]) => ({ fieldName, operator: 'matches', value })),
  });
}

/** getAll with credentials, object name, and extra parameters. */
export function getAll(
  emulator: RunningEmulator,
  credentials: Credentials,
  objectName: string,
  params: Partial<Record<string, string>> = {},
): Promise<WireAnswer> {
  return getJsonp(emulator, '/studio/jsonp/getAll', { ...credentials, objectName, ...params });
}

/** The `_id`s of a read answer's data. */
export function ids(answer: WireAnswer): string[] {
  return (answer.json.data as { _id: string }[]).map((record) => record._id);
}
