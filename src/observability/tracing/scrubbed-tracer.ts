/**
 * A tracer provider for third-party instrumentations whose spans may quote the caller's input: graphql-js's
 * parse and validate errors print the literal they stumbled on (`Expected Name, found String "…"`, `Int
 * cannot represent non-integer value: "…"`) and the graphql instrumentation records them as exception
 * messages. Through this provider an exception keeps only its type and a status only its code: filter values,
 * usernames and tokens never reach a span by way of an error message.
 *
 * With `requireParent`, a span without a parent is not recorded: graphql-js parses the schema's SDL at start
 * (20 one-span `graphql.parseSchema` traces per start) and nothing outside a request is worth a trace.
 */
import {
  INVALID_SPAN_CONTEXT,
  context as contextApi,
  isSpanContextValid,
  trace,
  type Attributes,
  type Context,
  type Exception,
  type Link,
  type Span,
  type AttributeValue,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

/** Options of {@link scrubbedTracerProvider}. */
export interface ScrubbedTracerOptions {
  /** Spans with no valid parent in their context are not recorded. */
  requireParent: boolean;
}

/** The type of an exception, never its message or stack. */
function exceptionType(exception: Exception): string {
  if (typeof exception === 'string') return 'Error';
  if ('code' in exception && exception.code !== undefined) return String(exception.code);
  return 'name' in exception && exception.name ? exception.name : 'Error';
}

/** A span that records exceptions by type and statuses by code only. */
class ScrubbedSpan implements Span {
  readonly #inner: Span;

  constructor(inner: Span) {
    this.#inner = inner;
  }

  spanContext(): SpanContext {
    return this.#inner.spanContext();
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.#inner.setAttribute(key, value);
    return this;
  }
  setAttributes(attributes: Attributes): this {
    this.#inner.setAttributes(attributes);
    return this;
  }
  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    this.#inner.addEvent(name, attributesOrTime, time);
    return this;
  }
  addLink(link: Link): this {
    this.#inner.addLink(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.#inner.addLinks(links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.#inner.setStatus({ code: status.code });
    return this;
  }
  updateName(name: string): this {
    this.#inner.updateName(name);
    return this;
  }
  end(endTime?: TimeInput): void {
    this.#inner.end(endTime);
  }
  isRecording(): boolean {
    return this.#inner.isRecording();
  }
  recordException(exception: Exception, time?: TimeInput): void {
    this.#inner.recordException({ name: exceptionType(exception) }, time);
  }
}

/** Whether `context` holds a valid span to be the parent. */
function hasParent(context: Context): boolean {
  const parent = trace.getSpan(context);
  return parent !== undefined && isSpanContextValid(parent.spanContext());
}

function scrubbedTracer(inner: Tracer, options: ScrubbedTracerOptions): Tracer {
  function startSpan(name: string, spanOptions?: SpanOptions, context?: Context): Span {
    const parentContext = context ?? contextApi.active();
    if (options.requireParent && spanOptions?.root !== true && !hasParent(parentContext)) {
      return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    }
    return new ScrubbedSpan(inner.startSpan(name, spanOptions, parentContext));
  }
  function startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const spanOptions = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const parentContext = rest.length > 2 ? (rest[1] as Context) : contextApi.active();
    const span = startSpan(name, spanOptions, parentContext);
    return contextApi.with(trace.setSpan(parentContext, span), () => fn(span)) as ReturnType<F>;
  }
  return { startSpan, startActiveSpan };
}

/** Wraps `inner` (usually the global provider): its tracers make {@link ScrubbedSpan}s. */
export function scrubbedTracerProvider(
  inner: TracerProvider,
  options: ScrubbedTracerOptions,
): TracerProvider {
  return {
    getTracer: (name, version, tracerOptions) =>
      scrubbedTracer(inner.getTracer(name, version, tracerOptions), options),
  };
}
