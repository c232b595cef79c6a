/**
 * The gateway's pino logger, handed to Fastify (`loggerInstance`): JSON lines (`level` a number or, with
 * `LOG_LEVEL_FORMAT=label`, a name), redacted at three layers
 * (`redact.ts`), with request and error serializers that never print headers or a URL's query values.
 */
import { pino, stdSerializers, type Logger } from 'pino';
import { createLogDestination } from './log-destination.ts';
import { createObjectRedactor, createTextRedactor, redactUrl } from './redact.ts';
import { traceLogFields, type TraceContext } from './tracing/tracing.ts';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level (`LOG_LEVEL`); `silent` writes nothing. */
  level: string;
  /** Destination; default stdout. */
  stream?: NodeJS.WritableStream | undefined;
  /** Literal values that must never be printed (the session secret, the Redis password). */
  secrets?: readonly (string | undefined)[];
  /**
   * `LOG_LEVEL_FORMAT`: `level` as pino's number (`30`, default) or its name (`info`), which pipelines map
   * to a severity without a lookup table.
   */
  levelFormat?: 'number' | 'label' | undefined;
  /**
   * When tracing is on: the active span, whose `trace_id`, `span_id` and `trace_flags` every line written
   * inside it carries (a breaker that opens, an unhandled error), so a pipeline joins it to its trace.
   */
  traceContext?: (() => TraceContext | undefined) | undefined;
}

/** Marks a logger whose bindings name the trace already (and its children: pino makes them by prototype). */
const TRACE_BOUND = Symbol('traceBound');

/**
 * A child of `log` whose every line names the span `context` (a request's server span): the request's own
 * logger, from its first hook on, the hooks and handlers outside the request's async scope included. The
 * logger's mixin adds nothing to its lines (no key twice).
 */
export function withTraceFields<L extends { child(bindings: object): L }>(log: L, context: TraceContext): L {
  const child = log.child(traceLogFields(context));
  Object.defineProperty(child, TRACE_BOUND, { value: true });
  return child;
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
  const { traceContext } = options;
  return pino(
    {
      level: options.level,
      // A line's own fields win over the mixin's (the request line names its server span explicitly).
      ...(traceContext === undefined
        ? {}
        : {
            mixin: (_object: object, _level: number, logger: object) => {
              if (TRACE_BOUND in logger) return {};
              const context = traceContext();
              return context === undefined ? {} : traceLogFields(context);
            },
          }),
      formatters: {
        log: (object) => redactObject(object) as Record<string, unknown>,
        ...(options.levelFormat === 'label' ? { level: (label: string) => ({ level: label }) } : {}),
      },
      serializers: { req: serializeRequest, res: serializeReply, err: stdSerializers.err },
      hooks: { streamWrite: redactText },
    },
    // Buffered stdout whose exit flush cannot hang the process (log-destination.ts).
    options.stream ?? createLogDestination(),
  );
}
