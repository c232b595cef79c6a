/**
 * The propagator the gateway registers: the one `OTEL_PROPAGATORS` names (W3C trace context and baggage by
 * default) for what a caller sends, but a guarded one for what the gateway sends. Only upstream calls are
 * injected into (the OTLP exporter and node:http clients are not instrumented), so the guard applies there:
 * the trace context leaves only with `UPSTREAM_PROPAGATE_TRACE=true`, and of the caller's baggage only the
 * entries `UPSTREAM_BAGGAGE_KEYS` names. A caller's baggage is the caller's text (4.5 kB of it seen): sent
 * verbatim it would reach a system that never asked for it, with whatever it holds.
 */
import {
  propagation,
  trace,
  type Context,
  type TextMapPropagator,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

/** Options of {@link createUpstreamPropagator}. */
export interface UpstreamPropagatorOptions {
  /** `UPSTREAM_PROPAGATE_TRACE`: inject the trace context (`traceparent`…). */
  propagateTrace: boolean;
  /** `UPSTREAM_BAGGAGE_KEYS`: the baggage entries that may be injected; none when empty. */
  baggageKeys: readonly string[];
}

/** Wraps `inner`: extraction unchanged, injection limited as the options say. */
export function createUpstreamPropagator(
  inner: TextMapPropagator,
  options: UpstreamPropagatorOptions,
): TextMapPropagator {
  const allowed: ReadonlySet<string> = new Set(options.baggageKeys);
  return {
    inject(context: Context, carrier: unknown, setter: TextMapSetter) {
      let outgoing = context;
      // Without a span in the context, trace-context propagators write nothing.
      if (!options.propagateTrace) outgoing = trace.deleteSpan(outgoing);
      const baggage = propagation.getBaggage(outgoing);
      if (baggage !== undefined) {
        const kept = baggage.getAllEntries().filter(([key]) => allowed.has(key));
        outgoing =
          kept.length === 0
            ? propagation.deleteBaggage(outgoing)
            : propagation.setBaggage(outgoing, propagation.createBaggage(Object.fromEntries(kept)));
      }
      inner.inject(outgoing, carrier, setter);
    },
    extract: (context: Context, carrier: unknown, getter: TextMapGetter) =>
      inner.extract(context, carrier, getter),
    fields: () => inner.fields(),
  };
}
