/**
 * The tracing settings both servers read (OpenTelemetry's standard variables), apart from
 * tracing.ts so that reading them loads nothing of OpenTelemetry. Decision 069.
 */

/** OTEL_TRACES_SAMPLER's values that VICS takes (the specification's, less the vendors'). */
export const TRACES_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

/**
 * The batch span processor's settings, as its SDK names them; the defaults are OpenTelemetry's
 * specification's for the OTEL_BSP_* variables.
 */
export interface SpanBatchSettings {
  /** OTEL_BSP_SCHEDULE_DELAY: ms from a first span held to its batch's export. */
  scheduledDelayMillis: number;
  /** OTEL_BSP_EXPORT_TIMEOUT: ms an export may take before the next batch goes. */
  exportTimeoutMillis: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans held at most; more are dropped, and the count logged. */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans in one export at most; a full batch goes at once. */
  maxExportBatchSize: number;
}

export const SPAN_BATCH_DEFAULTS: SpanBatchSettings = {
  scheduledDelayMillis: 5000,
  exportTimeoutMillis: 30000,
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
};

/** What startTracing needs; undefined when tracing is off. */
export interface TracingSettings {
  /** Where spans go: an OTLP/http (JSON) traces URL, e.g. http://127.0.0.1:4318/v1/traces. */
  tracesUrl: string;
  /** OTEL_SERVICE_NAME, else vics-service or vics-proxy. */
  serviceName: string;
  sampler: TracesSampler;
  /** The ratio of the traceidratio samplers, 0 to 1. */
  ratio: number;
  /** How spans are batched for export; unset: SPAN_BATCH_DEFAULTS. */
  batch?: SpanBatchSettings;
}

/** The OTEL_* fields as env-fields.ts parses them (SERVER_ENV_SHAPE). */
export interface TracingFields {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
  OTEL_TRACES_SAMPLER: TracesSampler;
  OTEL_TRACES_SAMPLER_ARG: number;
  OTEL_BSP_SCHEDULE_DELAY: number;
  OTEL_BSP_EXPORT_TIMEOUT: number;
  OTEL_BSP_MAX_QUEUE_SIZE: number;
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: number;
}

/**
 * The settings, or undefined (tracing off) when neither endpoint is set. As the specification
 * says, the traces endpoint is used as it is, and the general one gets /v1/traces added.
 */
export function tracingSettings(
  fields: TracingFields,
  defaultServiceName: string,
): TracingSettings | undefined {
  const tracesUrl =
    fields.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (fields.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
      ? undefined
      : `${fields.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`);
  if (tracesUrl === undefined) return undefined;
  return {
    tracesUrl,
    serviceName: fields.OTEL_SERVICE_NAME ?? defaultServiceName,
    sampler: fields.OTEL_TRACES_SAMPLER,
    ratio: fields.OTEL_TRACES_SAMPLER_ARG,
    batch: {
      scheduledDelayMillis: fields.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: fields.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: fields.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: fields.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    },
  };
}
