/**
 * `@vics/server-kit/tracing`: OpenTelemetry traces, off unless an OTLP endpoint is set
 * (tracing-settings.ts). Only `@opentelemetry/api` is loaded with this module, and it is a no-op
 * while no SDK is registered: the SDK and the exporter are imported by startTracing, when
 * tracing is on. Spans are made by hand (decision 069): a server span per request
 * (traceRequests, named by the access log's route template), a client span per call of the
 * proxy to the service (startClientCall), a span per store call (traceCalls). No span holds a
 * path, a query, a registration, an email or a key.
 */
import { format } from "node:util";
import {
  context,
  type DiagLogger,
  DiagLogLevel,
  diag,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
  TraceFlags,
  type Tracer,
} from "@opentelemetry/api";
import type { IdGenerator, Sampler } from "@opentelemetry/sdk-trace";
import { HEALTH_PATH, READY_PATH } from "@vics/shared";
import type { Logger } from "./logger.ts";
import type { TracingSettings } from "./tracing-settings.ts";

/** W3C Trace Context's header. */
export const TRACEPARENT_HEADER = "traceparent";

const TRACER = "@vics/server-kit";

/** What a server's index.ts holds while it runs. */
export interface Tracing {
  /** `target` with a span around each of its calls (traceCalls), or `target` itself when off. */
  traceCalls<T extends object>(target: T, system: string): T;
  /** `fetch` with a server span around each request, or `fetch` itself when off. */
  traceRequests<F extends AppFetch>(fetch: F): F;
  /**
   * Sends the spans still held, then stops, waiting STOP_EXPORT_MS at most. Never fails: when
   * the collector does not take them in time (down, refusing, too slow), the logger tracing
   * started with is told why, at warn, and the process stops as cleanly as it would have. Then
   * unregisters what the start registered for the process: a later start begins afresh.
   */
  close(): Promise<void>;
}

type AppFetch = (
  request: Request,
  ...rest: never[]
) => Response | Promise<Response>;

/**
 * How long a stop waits for the spans it holds to be sent. The exporter itself retries a
 * refused or failed export for up to 10 s, which a stop cannot spare: systemd gives each server
 * 15 or 20 s in all, most of it for the requests in flight (deploy/systemd).
 */
export const STOP_EXPORT_MS = 2_000;

const OFF: Tracing = {
  traceCalls: (target) => target,
  traceRequests: (fetch) => fetch,
  close: async () => {},
};

/**
 * Starts tracing when `settings` say where to (else everything stays a no-op and nothing of the
 * SDK is loaded). `edge`: this process is where VICS's traces begin (the proxy). There the
 * configured sampler decides each request before the SDK is asked (traceEdgeRequests): a
 * caller's traceparent gives the trace its id, but its flag, sampled or not, is no decision (the
 * web app records nothing, and says so; any other client could send `-01`), and a request left
 * out never reaches the SDK.
 */
export async function startTracing(
  settings: TracingSettings | undefined,
  {
    edge = false,
    logger,
  }: {
    edge?: boolean;
    /**
     * Told, at warn, of the spans the collector did not take: each batch while running (through
     * the SDK's global error handler, the process's until close()), and those held at the stop;
     * and of what the SDK reports at warn or error to its diagnostic logger (the process's too,
     * until close()): spans dropped from a full queue, a partial success.
     */
    logger: Pick<Logger, "warn">;
  },
): Promise<Tracing> {
  if (settings === undefined) return OFF;
  const [
    sdk,
    { OTLPTraceExporter },
    { AsyncLocalStorageContextManager },
    core,
    resources,
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
  ]);
  // What the SDK tells its diagnostic logger at warn and error: spans dropped because the queue
  // was full, a collector's partial success, an OTEL_EXPORTER_OTLP_* variable it cannot use
  // (set first: the exporter reads those when it is made). Its debug and info stay unheard.
  diag.setLogger(diagnostics(logger), {
    logLevel: DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
  const ratio = new sdk.TraceIdRatioBasedSampler(settings.ratio);
  const parentBased = (root: Sampler) => new sdk.ParentBasedSampler({ root });
  const sampler = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: () => ratio,
    parentbased_always_on: () => parentBased(new sdk.AlwaysOnSampler()),
    parentbased_always_off: () => parentBased(new sdk.AlwaysOffSampler()),
    parentbased_traceidratio: () => parentBased(ratio),
  }[settings.sampler]();
  const random = new sdk.RandomIdGenerator();
  // At the edge, a request's new trace id is drawn before the SDK is asked, so the sampler
  // decides on the id the trace then has: the SDK's generator hands the span that one.
  const decided = edge ? decidedTraceIds(random) : undefined;
  if (edge) edgeIds = random;
  const provider = new sdk.TracerProvider({
    // At the edge the SDK sees only the requests the sampler kept, and their spans' children:
    // it records what it is handed.
    sampler: edge ? new sdk.AlwaysOnSampler() : sampler,
    ...(decided && { idGenerator: decided.generator }),
    resource: resources.resourceFromAttributes({
      "service.name": settings.serviceName,
    }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: settings.tracesUrl }),
        ...settings.batch,
      }),
    ],
  });
  context.setGlobalContextManager(
    new AsyncLocalStorageContextManager().enable(),
  );
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  // A batch the collector refused, or did not take within the exporter's retries, reaches the
  // SDK's global error handler, which by default tells the diagnostic logger at error: one
  // line of its own instead, with the reason in words.
  core.setGlobalErrorHandler((error) =>
    logger.warn("traces not sent", { reason: failureReason(error) }),
  );
  trace.setGlobalTracerProvider(provider);
  started = provider.getTracer(TRACER);
  // A process that follows its caller's decision (not the edge, a parent-based sampler) records
  // nothing of a request whose caller's traceparent says not sampled: the SDK is not asked.
  const followsCaller = followsItsCaller(settings.sampler, edge);
  const kept = (traceId: string, method: string) =>
    sampler.shouldSample(ROOT_CONTEXT, traceId, method, SpanKind.SERVER, {}, [])
      .decision === sdk.SamplingDecision.RECORD_AND_SAMPLED;
  return {
    traceCalls,
    traceRequests: (fetch) =>
      decided
        ? traceEdgeRequests(fetch, { kept, ids: decided, random })
        : traceRequests(fetch, followsCaller),
    close: async () => {
      const unsent = await unsentWithin(provider, STOP_EXPORT_MS);
      if (unsent !== undefined)
        logger.warn("traces held at the stop were not sent", {
          reason: unsent,
        });
      // The process's tracing as before the start: no provider, context manager, propagator,
      // diagnostic logger or error handler is left registered (none but the start's ever is).
      trace.disable();
      context.disable();
      propagation.disable();
      diag.disable();
      core.setGlobalErrorHandler(core.loggingErrorHandler());
      started = undefined;
    },
  };
}

/**
 * The SDK's trace ids at the edge: the id the edge decided a request on (`decided`), for the
 * one span started while it is set (the request's server span, which has no parent then); a
 * random one otherwise. Span ids are always random.
 */
function decidedTraceIds(random: IdGenerator) {
  let next: string | undefined;
  return {
    decided(traceId: string | undefined) {
      next = traceId;
    },
    generator: {
      generateTraceId() {
        const id = next ?? random.generateTraceId();
        next = undefined;
        return id;
      },
      generateSpanId: () => random.generateSpanId(),
    } satisfies IdGenerator,
  };
}

/**
 * `provider` shut down, its held spans sent: undefined; or why they were not, once it failed or
 * `ms` have passed.
 */
async function unsentWithin(
  provider: { shutdown(): Promise<void> },
  ms: number,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`not sent within ${ms / 1000} s`), ms);
  });
  try {
    return await Promise.race([
      provider.shutdown().then(() => undefined, failureReason),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The SDK's diagnostic logger: its warnings and errors as one warn line each, "tracing reported
 * a problem", the SDK's words as `detail` ("Dropped 40 spans because maxQueueSize reached"), cut
 * to DETAIL_MAX characters (a collector's own message can be of any length). A partial success
 * that rejected nothing and says nothing is no problem: some collectors answer one to every
 * batch.
 */
function diagnostics(logger: Pick<Logger, "warn">): DiagLogger {
  const report = (message: string, ...args: unknown[]) => {
    if (message === PARTIAL_SUCCESS && emptyPartialSuccess(args[0])) return;
    const detail = format(message, ...args);
    logger.warn("tracing reported a problem", {
      detail:
        detail.length > DETAIL_MAX ? `${detail.slice(0, DETAIL_MAX)}…` : detail,
    });
  };
  const unheard = () => {};
  return {
    error: report,
    warn: report,
    info: unheard,
    debug: unheard,
    verbose: unheard,
  };
}

const DETAIL_MAX = 1_000;

/** What the OTLP exporter tells the diagnostic logger of a partial success, its JSON after. */
const PARTIAL_SUCCESS = "Received Partial Success response:";

/**
 * A partial success's JSON that rejected no span and holds no message. OTLP lets a collector
 * send a message with nothing rejected, as a warning: that one is logged.
 */
function emptyPartialSuccess(json: unknown): boolean {
  if (typeof json !== "string") return false;
  try {
    const { rejectedSpans, errorMessage } = JSON.parse(json) as {
      rejectedSpans?: number | string;
      errorMessage?: string;
    };
    return Number(rejectedSpans ?? 0) === 0 && (errorMessage ?? "") === "";
  } catch {
    return false;
  }
}

/**
 * An export's failure in words: its message, or its parts' (a connection to a name with several
 * addresses fails with an AggregateError whose own message is empty), or its code.
 */
function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message !== "") return error.message;
  if (error instanceof AggregateError)
    return error.errors.map((each) => failureReason(each)).join("; ");
  return (error as { code?: string }).code ?? error.name;
}

/**
 * Whether a process records nothing of a request whose caller says not sampled, whatever else:
 * one that is not the edge, with a parent-based sampler (the service).
 */
export function followsItsCaller(
  sampler: TracingSettings["sampler"],
  edge: boolean,
): boolean {
  return !edge && sampler.startsWith("parentbased_");
}

/** The provider's tracer, once tracing has started: asked of it once, not for each span. */
let started: Tracer | undefined;
const tracer = () => (started ??= trace.getTracer(TRACER));

/**
 * Whether the sampler kept `span`'s trace: its sampled flag. Not `isRecording()`, which turns
 * false once the span has ended, while work the request left running is still part of it.
 */
const sampled = (span: Span) =>
  (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;

/** What a call to another server sends, and what ends its span once answered. */
export interface ClientCall {
  /** The traceparent header to send, or none. */
  traceparent: string | undefined;
  /** The answer's status; undefined when none came (a time-out, a refused connection). */
  end(status: number | undefined): void;
}

const UNTRACED: ClientCall = { traceparent: undefined, end: () => {} };

/**
 * The edge's id generator, once this process is the edge and traces (startTracing): then a
 * request with no span active was left out, and its client call sends it on as not sampled,
 * whatever its caller's flag said and however the request reached the call (a body limit may
 * hand the route a new Request). Never unset: a request still in flight after close() fails
 * closed too.
 */
let edgeIds: IdGenerator | undefined;

/**
 * A call to another server (the proxy's to the service) on behalf of `request`, as a client
 * span, child of the request's: named by `route`, the called server's route template
 * ("GET /v1/compliance/:registration"), never the path, which can hold a plate; its URL is the
 * origin and the template. The traceparent to send is the span's own. For a request the edge
 * left out, it is the caller's ids flagged not sampled (W3C lets a server that records nothing
 * pass the parent id on), or new ones when the caller sent none valid. When this process
 * traces nothing, it is the caller's one passed on, if valid, and none if malformed.
 */
export function startClientCall(
  method: string,
  origin: string,
  route: string | undefined,
  request: Request,
): ClientCall {
  const active = trace.getActiveSpan();
  if (active === undefined) {
    const caller = passedOn(request.headers.get(TRACEPARENT_HEADER));
    if (edgeIds !== undefined)
      return {
        traceparent:
          caller === undefined
            ? `00-${edgeIds.generateTraceId()}-${edgeIds.generateSpanId()}-00`
            : `00-${caller.slice(3, 52)}-00`,
        end: UNTRACED.end,
      };
    return caller === undefined
      ? UNTRACED
      : { traceparent: caller, end: UNTRACED.end };
  }
  // A request the SDK's sampler left out (a process that does not decide first): no span of
  // its own, and the request's context sent on, flagged as not sampled, so the called server
  // leaves it out too.
  if (!sampled(active)) {
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    return { traceparent: carrier[TRACEPARENT_HEADER], end: UNTRACED.end };
  }
  const template = route ?? "(redacted)";
  const span = tracer().startSpan(`${method} ${template}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "http.request.method": method,
      "url.full": `${origin}${template}`,
      ...(route !== undefined && { "url.template": route }),
    },
  });
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return {
    traceparent: carrier[TRACEPARENT_HEADER],
    end(status) {
      if (status !== undefined)
        span.setAttribute("http.response.status_code", status);
      if (status === undefined || status >= 500)
        span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

const headersGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * At the edge: `kept` (the configured sampler) decides each request on its trace id, the
 * caller's when its traceparent is valid, else a new one drawn here, which a kept request's
 * trace then has. A kept request gets its server span (traceRequests). One left out never
 * reaches the SDK, nor enters a context: no span is active while it runs, so its store calls
 * make none, and its client call sends it on flagged not sampled (startClientCall), so the
 * service leaves it out too.
 */
function traceEdgeRequests<F extends AppFetch>(
  fetch: F,
  {
    kept,
    ids,
    random,
  }: {
    kept: (traceId: string, method: string) => boolean;
    ids: ReturnType<typeof decidedTraceIds>;
    random: IdGenerator;
  },
): F {
  const traced = traceRequests(fetch, false);
  return ((request: Request, ...rest: never[]) => {
    // Before the sampler is asked: a probe is never traced (traceRequests leaves it out too).
    if (isProbe(request.url)) return fetch(request, ...rest);
    const caller = passedOn(request.headers.get(TRACEPARENT_HEADER));
    const traceId =
      caller === undefined ? random.generateTraceId() : traceIdOf(caller);
    if (!kept(traceId, request.method)) return fetch(request, ...rest);
    // Asked of the generator only when the span has no parent: with a valid traceparent, the
    // span takes the caller's id, which is this one too.
    ids.decided(traceId);
    try {
      return traced(request, ...rest);
    } finally {
      ids.decided(undefined);
    }
  }) as F;
}

/**
 * A server span around each request, child of the caller's traceparent when it sent a valid one.
 * Named by its method until the access log names its route (nameServerSpan): never its path.
 */
function traceRequests<F extends AppFetch>(
  fetch: F,
  followsCaller: boolean,
): F {
  return ((request: Request, ...rest: never[]) => {
    if (isProbe(request.url)) return fetch(request, ...rest);
    if (followsCaller) {
      const incoming = request.headers.get(TRACEPARENT_HEADER);
      if (incoming !== null && sampledFlag(incoming) === false)
        return fetch(request, ...rest);
    }
    const parent = propagation.extract(
      ROOT_CONTEXT,
      request.headers,
      headersGetter,
    );
    return tracer().startActiveSpan(
      request.method,
      { kind: SpanKind.SERVER },
      parent,
      async (span) => {
        // Set once the sampler kept it: a span left out would check the attribute for nothing.
        if (span.isRecording())
          span.setAttribute("http.request.method", request.method);
        try {
          const response = await fetch(request, ...rest);
          span.setAttribute("http.response.status_code", response.status);
          if (response.status >= 500)
            span.setStatus({ code: SpanStatusCode.ERROR });
          return response;
        } catch (error) {
          // No message: it could quote what the request held.
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }) as F;
}

/** The paths supervisors and load balancers poll: never traced. */
const PROBES = new Set([HEALTH_PATH, READY_PATH]);

/**
 * Whether `url` (a request's, absolute) is a probe's: /health or /ready, whatever its query. A
 * probe every few seconds, from each of them, would be most of a quiet server's traces, and
 * the access log keeps /health at debug for the same reason.
 */
function isProbe(url: string): boolean {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  if (path === -1) return false;
  const query = url.indexOf("?", path);
  return PROBES.has(url.slice(path, query === -1 ? undefined : query));
}

/**
 * Names the request's server span by its route template (routeTemplate in access-log.ts), as
 * OpenTelemetry's conventions say: "GET /v1/compliance/:registration". Nothing when off.
 */
export function nameServerSpan(method: string, route: string): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute("http.route", route);
}

/**
 * `target` with a client span around each call of its methods, named by the method
 * ("findVehicle") with the database's system (postgresql, sqlite): the store's calls, each
 * one or a few queries. Neither the query nor its values: they hold plates and key hashes.
 *
 * Wrapped once, here: an object with each method of `target` (its own and its prototypes')
 * as its own property, and each other property read from `target` when asked. Not a Proxy,
 * whose trap would run on every call of every request, traced or not.
 */
function traceCalls<T extends object>(target: T, system: string): T {
  const wrapped: Record<string, unknown> = {};
  for (const name of propertyNames(target)) {
    const value: unknown = Reflect.get(target, name);
    if (typeof value === "function")
      wrapped[name] = spannedCall(
        value as (...args: unknown[]) => unknown,
        target,
        { name, system },
      );
    else
      Object.defineProperty(wrapped, name, {
        get: () => Reflect.get(target, name),
        set: (value: unknown) => Reflect.set(target, name, value),
        enumerable: true,
      });
  }
  return wrapped as T;
}

/** Every string-keyed property of `value` and its prototypes but Object's own. */
function propertyNames(value: object): Set<string> {
  const names = new Set<string>();
  for (
    let object: object | null = value;
    object !== null && object !== Object.prototype;
    object = Object.getPrototypeOf(object) as object | null
  )
    for (const name of Object.getOwnPropertyNames(object))
      if (name !== "constructor") names.add(name);
  return names;
}

function spannedCall(
  method: (...args: unknown[]) => unknown,
  self: object,
  { name, system }: { name: string; system: string },
) {
  const attributes = {
    "db.system.name": system,
    "db.operation.name": name,
  };
  return (...args: unknown[]) => {
    // Only within a traced request the sampler kept (work it left running after its answer
    // too): start-up's and background work's calls make no root spans, and a request left out
    // makes none of its calls' spans either.
    const active = trace.getActiveSpan();
    if (active === undefined || !sampled(active))
      return method.apply(self, args);
    return tracer().startActiveSpan(
      name,
      { kind: SpanKind.CLIENT, attributes },
      (span) => {
        let result: unknown;
        try {
          result = method.apply(self, args);
        } catch (error) {
          failed(span);
          throw error;
        }
        if (!(result instanceof Promise)) {
          span.end();
          return result;
        }
        return result.then(
          (value: unknown) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            failed(span);
            throw error;
          },
        );
      },
    );
  };
}

function failed(span: Span): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

const TRACEPARENT =
  /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^]*)?$/;
/** A valid version-00 traceparent, its ids not all zeros. */
const PLAIN_TRACEPARENT =
  /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A header's traceparent as it is passed on (passedOnTraceparent); none when absent. */
const passedOn = (value: string | null) =>
  value === null ? undefined : passedOnTraceparent(value);

/** The trace id of a traceparent passedOnTraceparent took: its second field, 32 hex digits. */
const traceIdOf = (passedOn: string) => passedOn.slice(3, 35);

/** A valid traceparent's sampled flag; undefined when W3C's rules refuse it. */
export function sampledFlag(value: string): boolean | undefined {
  const passedOn = passedOnTraceparent(value);
  // Its flags are the fourth field, two hex digits; bit 0 says sampled.
  return passedOn === undefined
    ? undefined
    : (Number.parseInt(passedOn.slice(53, 55), 16) & 1) === 1;
}

/**
 * A caller's traceparent as it is passed on, or undefined when W3C's rules refuse it (upper
 * case, version ff, a version 00 with anything after its four fields, an all-zero id). A later
 * version's is passed on as version 00 sends it: its four first fields, what follows dropped.
 */
export function passedOnTraceparent(value: string): string | undefined {
  // What a W3C client (the web app) sends: passed on as it is, after one test.
  if (PLAIN_TRACEPARENT.test(value)) return value;
  const match = TRACEPARENT.exec(value);
  if (match === null) return undefined;
  const [, version, traceId, parentId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined))
    return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return version === "00" ? value : `00-${traceId}-${parentId}-${flags}`;
}
