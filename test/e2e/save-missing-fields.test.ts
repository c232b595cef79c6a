/**
 * A save the upstream refuses for a missing field (`SAVE_ERR_401 "missing fields: organizationCode"`) is the
 * gateway's error, not a rejected token: the session lives on. The gateway here has no
 * ORGANIZATION_CODE (development allows it), so a login without one makes sessions whose saves lack it.
 */
import { expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { LOGIN, postGraphql } from '../support/post-graphql.ts';

const h = useHarness({ env: { ORGANIZATION_CODE: '' } });

const SAVE = `mutation Save($data: JSONObject!) { saveObject(objectName: "com.example.LoanType", data: $data) { id } }`;
const ME = '{ me { username } }';

it('should answer a save refused for a missing field as the gateway error, and keep the session alive', async () => {
  const login = await postGraphql(h.graphqlUrl, LOGIN, { username: 'demo', password: 'demo-password' });
  const token = (login.data?.login as { token: string } | undefined)?.token ?? '';
  expect(token).not.toBe('');
  const auth = { authorization: `Bearer ${token}` };

  for (let attempt = 0; attempt < 2; attempt++) {
    const saved = await postGraphql(h.graphqlUrl, SAVE, { data: { loanType: 'no-org' } }, auth);
    expect(saved.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_ERROR',
      blame: 'gateway',
      reason: 'request_rejected',
      upstream: { error_code: 'SAVE_ERR_401', message: 'missing fields: organizationCode' },
    });
    expect(saved.errors?.[0]?.message).toContain('missing fields: organizationCode');
  }
  // Not revoked: the session still answers as itself.
  const me = await postGraphql(h.graphqlUrl, ME, {}, auth);
  expect(me.errors).toBeUndefined();
  expect(me.data).toEqual({ me: { username: 'demo' } });
});
