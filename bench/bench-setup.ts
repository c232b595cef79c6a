/**
 * What every bench run starts from: the emulator (with the bench's users, `bench-emulator.ts`) on a free
 * port, the demo user's upstream token, one logged-in bench user per connection, and the fixture the
 * expected answers are built from.
 */
import { fileURLToPath } from 'node:url';
import { benchUsers } from './bench-users.ts';
import { loadFixture, loginSessions, loginUpstream } from './emulator-client.ts';
import type { PeerEnvironment } from './peer-registry.ts';
import { freePort, httpProbe, startNodeProcess, waitUntilReady } from './processes.ts';

const EMULATOR_SCRIPT = fileURLToPath(new URL('bench-emulator.ts', import.meta.url));

/**
 * Starts the emulator and logs everyone in. The caller stops `emulator` (also when this throws after it
 * started: it is returned through `onStarted` first).
 */
export async function setUpBench(
  logDir: string,
  onStarted: (emulator: PeerEnvironment['emulator']) => void,
  emulatorEnv: Record<string, string> = { EMULATOR_LATENCY_MS: '0', NODE_ENV: 'production' },
): Promise<PeerEnvironment> {
  const port = await freePort();
  const emulatorUrl = `http://127.0.0.1:${port}`;
  const emulator = startNodeProcess(
    'emulator',
    EMULATOR_SCRIPT,
    { ...emulatorEnv, EMULATOR_PORT: String(port) },
    logDir,
  );
  onStarted(emulator);
  await waitUntilReady(emulator, httpProbe(`${emulatorUrl}/__emulator/stats`));
  const upstreamToken = await loginUpstream(emulatorUrl);
  return {
    emulatorUrl,
    emulator,
    upstreamToken,
    sessions: await loginSessions(emulatorUrl, benchUsers()),
    fixture: await loadFixture(emulatorUrl, upstreamToken),
    logDir,
  };
}
