/**
 * The gateway's pino logger, handed to Fastify (`loggerInstance`): JSON lines, redacted at three layers
 * (`redact.ts`), with request and error serializers that never print headers or a URL's query values.
 */
import { pino, stdSerializers, type Logger } from 'pino';
import { createLogDestination } from './log-destination.ts';
import { createObjectRedactor, createTextRedactor, redactUrl } from './redact.ts';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level (`LOG_LEVEL`); `silent` writes nothing. */
  level: string;
  /** Destination; default stdout. */
  stream?: NodeJS.WritableStream | undefined;
  /** Literal values that must never be printed (the session secret, the Redis password). */
  secrets?: readonly (string | undefined)[];
}

/** The fields of a request worth logging: no headers (they carry `authorization` and cookies). */
function serializeRequest(request: { method?: string; url?: string; ip?: string; id?: unknown }) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    remoteAddress: request.ip,
  };
}

function serializeReply(reply: { statusCode?: number }) {
  return { statusCode: reply.statusCode };
}

/** Creates the logger. */
export function createLogger(options: LoggerOptions): Logger {
  const redactText = createTextRedactor(options.secrets ?? []);
  const redactObject = createObjectRedactor();
  return pino(
    {
      level: options.level,
      formatters: {
        log: (object) => redactObject(object) as Record<string, unknown>,
      },
      serializers: { req: serializeRequest, res: serializeReply, err: stdSerializers.err },
      hooks: { streamWrite: redactText },
    },
    // Buffered stdout whose exit flush cannot hang the process (log-destination.ts).
    options.stream ?? createLogDestination(),
  );
}
