import type { CounterMetric, HistogramMetric, PluginContext } from 'patchbay';

interface DeliveryMetrics {
  attempts: CounterMetric<'result'>;
  seconds: HistogramMetric<'result'>;
}

const declared = new WeakMap<PluginContext, DeliveryMetrics>();

/** The webhook families, declared once per server: attempts by result and their time. */
export function deliveryMetrics(ctx: PluginContext): DeliveryMetrics {
  let metrics = declared.get(ctx);
  if (!metrics) {
    metrics = {
      attempts: ctx.metrics.counter({
        name: 'patchbay_webhook_deliveries_total',
        help: 'Webhook delivery attempts, by result: delivered, retrying (a failure with attempts left) or failed (the last attempt failed).',
        labels: ['result'],
      }),
      seconds: ctx.metrics.histogram({
        name: 'patchbay_webhook_delivery_seconds', help: 'Time of a webhook delivery attempt (render, request and answer), by result.', labels: ['result'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      }),
    };
    declared.set(ctx, metrics);
  }
  return metrics;
}
