/**
 * A gateway logging at `info` into a capture, for the tests that read what an operator would see in the
 * log (`test/observability/period-summary.test.ts`, `upstream-failure-log.test.ts`): the gateway, and the
 * JSON lines it has written so far (all, or those with one message).
 */
import { startGateway, type TestGateway } from './gateway-harness.ts';
import { logCapture, type LogLine } from './log-capture.ts';

/** Starts a gateway in front of `upstreamUrl`, its settings `env` over `LOG_LEVEL=info`; close `gw` after. */
export async function startLoggedGateway(
  upstreamUrl: string,
  env: Record<string, string> = {},
): Promise<{ gw: TestGateway; lines: () => LogLine[]; saying: (msg: string) => LogLine[] }> {
  const { stream, lines, saying } = logCapture();
  const gw = await startGateway({ upstreamUrl, logStream: stream, env: { LOG_LEVEL: 'info', ...env } });
  return { gw, lines, saying };
}
