/**
 * The demo account's canonical user key (`src/auth/user-key.ts`): what every per-user share of a demo
 * session is keyed by, whether it logged in as `demo` (JSON) or `5550100` (form).
 */
import { DEMO, EMULATOR_USERS } from '../../emulator/identity/demo-users.ts';
import { userKeyOf } from '../../src/auth/user-key.ts';

const demoUserId = EMULATOR_USERS.find((user) => user.username === DEMO.username)?.userId;

/** The demo account's key, as its form login (which answers the `userId`) makes it. */
export const DEMO_USER_KEY = userKeyOf({
  applicationCode: DEMO.applicationCode,
  username: DEMO.mobile,
  userId: demoUserId,
});
