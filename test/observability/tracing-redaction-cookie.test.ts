/**
 * A session carried by the upstream's cookie (`EMULATOR_FORM_LOGIN_SESSION=cookie`) leaves nothing of it in a
 * span: the real command (`node src/main.ts`) exports to an OTLP receiver that keeps every span; after a login
 * by mobile number, a read, a save, an update and a failing read, every attribute of every span and span event
 * is searched for each session cookie the upstream was sent (read from the requests passing a proxy).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO } from '../../emulator/index.ts';
import { stopProcess } from '../../support/child-process.ts';
import type { GatewayCommand } from '../../support/gateway-command.ts';
import { useEmulator } from '../support/emulator-fixture.ts';
import { SpanKindNumber } from '../support/otlp-receiver.ts';
import { startTracedGatewayCommand } from '../support/traced-gateway-command.ts';
import { spanAttributeValues as attributeValues } from '../support/span-attribute-values.ts';
import { useOtlpReceiver } from '../support/use-otlp-receiver.ts';
import { startNotingProxy } from '../support/servers/forward-request.ts';
import type { Listening } from '../support/servers/listen-on-loopback.ts';

const LOAN = 'com.example.LoanType';
const TRACE_ID = '77777777777777777777777777777777';

const { emulator } = useEmulator({ formLoginSession: 'cookie' });
const receiver = useOtlpReceiver();
let proxy: Listening;
let gateway: GatewayCommand;
/** Every `Cookie` header the upstream was sent. */
const cookies = new Set<string>();

async function post(token: string | undefined, query: string, variables: object = {}): Promise<unknown> {
  const response = await fetch(gateway.graphqlUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

beforeAll(async () => {
  proxy = await startNotingProxy(emulator.url, (req) => {
    if (req.headers.cookie !== undefined) cookies.add(req.headers.cookie);
  });
  gateway = await startTracedGatewayCommand(proxy.url, receiver, { LOGIN_METHOD: 'FORM' });
  const login = (await post(
    undefined,
    `mutation { login(username: "${DEMO.mobile}", password: "${DEMO.password}") { token } }`,
  )) as { data: { login: { token: string } } };
  const { token } = login.data.login;
  const page = (await post(token, `{ objects(objectName: "${LOAN}", first: 2) { nodes { id } } }`)) as {
    data: { objects: { nodes: { id: string }[] } };
  };
  const saved = (await post(
    token,
    `mutation Save($data: JSONObject!) { saveObject(objectName: "${LOAN}", data: $data) { id } }`,
    { data: { name: 'traced' } },
  )) as { data: { saveObject: { id: string } } };
  await post(
    token,
    `mutation Update($id: ID!) { updateObject(id: $id, objectName: "${LOAN}", data: { rate: 2 }) { id } }`,
    { id: saved.data.saveObject.id },
  );
  await post(token, `{ objects(objectName: "com.example.Nope", first: 1) { totalCount } }`);
  expect(page.data.objects.nodes.length).toBe(2);
  await receiver.waitFor(
    () =>
      receiver.spans().filter((s) => s.traceId === TRACE_ID && s.kind === SpanKindNumber.SERVER).length >= 5,
  );
});

afterAll(async () => {
  await stopProcess(gateway.process, 0, 'SIGKILL');
  await proxy.close();
});

it("should keep the upstream's session cookie out of every attribute of every span", () => {
  const clients = receiver.spans().filter((s) => s.kind === SpanKindNumber.CLIENT);
  expect(clients.length).toBeGreaterThanOrEqual(4);
  expect(cookies.size).toBe(1);
  const values = attributeValues(receiver.spans());
  for (const cookie of cookies) {
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect(value.length).toBeGreaterThan(10);
    expect(values.filter((text) => text.includes(value))).toEqual([]);
  }
});
