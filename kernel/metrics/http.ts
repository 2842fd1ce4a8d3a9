import type { Request, Response } from 'express';
import type { RequestHook } from '../app/surface.js';
import { requestedPath } from '../http/scope.js';
import type { Metrics } from './registry.js';
import type { ViewNames } from './views.js';

/** django-prometheus's latency buckets, which NetBox's dashboards are drawn for. */
const DJANGO_LATENCY = [0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 25, 50, 75];
/** Patchbay's own: finer where its requests are (a few milliseconds). */
const LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATEMENTS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 1000];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A label value from a fixed set: the few methods the API knows, any other one named as such. */
const methodOf = (req: Request) => (METHODS.has(req.method) ? req.method : 'OTHER');
/** `/api/dcim/sites/:id/` as OpenAPI writes it: `/api/dcim/sites/{id}/`. */
const routeLabel = (template: string | undefined) => (template === undefined ? '<unmatched>' : template.replace(/:([A-Za-z_]+)/g, '{$1}'));

/**
 * The request families: django-prometheus's and NetBox's names, labelled as they label them (`view` is the URL
 * name), and Patchbay's own by route template, with each request's SQL statements. Recorded as each response ends.
 */
export function requestMetrics(metrics: Metrics, views: ViewNames): RequestHook {
  const before = metrics.counter({ name: 'django_http_requests_before_middlewares_total', help: 'Total count of requests before middlewares run.' });
  const responsesBefore = metrics.counter({ name: 'django_http_responses_before_middlewares_total', help: 'Total count of responses before middlewares run.' });
  const latencyAll = metrics.histogram({
    name: 'django_http_requests_latency_including_middlewares_seconds', help: 'Histogram of requests processing time (including middleware processing time).', buckets: DJANGO_LATENCY,
  });
  const byMethod = metrics.counter({ name: 'django_http_requests_total_by_method', help: 'Count of requests by method.', labels: ['method'] });
  const byTransport = metrics.counter({ name: 'django_http_requests_total_by_transport', help: 'Count of requests by transport.', labels: ['transport'] });
  const byViewTransportMethod = metrics.counter({
    name: 'django_http_requests_total_by_view_transport_method', help: 'Count of requests by view, transport, method.', labels: ['view', 'transport', 'method'],
  });
  const latencyByView = metrics.histogram({
    name: 'django_http_requests_latency_seconds_by_view_method', help: 'Histogram of request processing time labelled by view.', labels: ['view', 'method'], buckets: DJANGO_LATENCY,
  });
  const byStatus = metrics.counter({ name: 'django_http_responses_total_by_status', help: 'Count of responses by status.', labels: ['status'] });
  const byStatusView = metrics.counter({
    name: 'django_http_responses_total_by_status_view_method', help: 'Count of responses by status, view, method.', labels: ['status', 'view', 'method'],
  });
  const exceptionsByType = metrics.counter({ name: 'django_http_exceptions_total_by_type', help: 'Count of exceptions by object type.', labels: ['type'] });
  const exceptionsByView = metrics.counter({ name: 'django_http_exceptions_total_by_view', help: 'Count of exceptions by view.', labels: ['view'] });
  const restByMethod = metrics.counter({ name: 'rest_api_requests_total_by_method', help: 'Count of REST API requests by method.', labels: ['method'] });
  const restByView = metrics.counter({ name: 'rest_api_requests_total_by_view_method', help: 'Count of REST API requests by view and method.', labels: ['view', 'method'] });
  const graphql = metrics.counter({ name: 'graphql_api_requests_total', help: 'Count of GraphQL API requests.' });
  const duration = metrics.histogram({
    name: 'patchbay_http_request_duration_seconds', help: 'Time from a request to its response, by route template, method and status.',
    labels: ['route', 'method', 'status'], buckets: LATENCY,
  });
  const statements = metrics.histogram({
    name: 'patchbay_http_request_sql_statements', help: 'SQL statements one request ran, by route template and method.', labels: ['route', 'method'], buckets: STATEMENTS,
  });

  return {
    response(req: Request, res: Response, ms: number) {
      const method = methodOf(req);
      const view = views.of(req.scope?.route);
      const status = res.statusCode;
      const seconds = ms / 1000;
      // Not `req.secure`: the socket of a client that went away is gone by now.
      const transport = req.scope.secure ? 'https' : 'http';
      before.inc();
      responsesBefore.inc();
      latencyAll.observe({}, seconds);
      byMethod.inc({ method });
      byTransport.inc({ transport });
      byViewTransportMethod.inc({ view, transport, method });
      latencyByView.observe({ view, method }, seconds);
      byStatus.inc({ status });
      byStatusView.inc({ status, view, method });
      const error = req.scope?.error;
      if (error) {
        exceptionsByType.inc({ type: error });
        exceptionsByView.inc({ view });
      }
      const path = requestedPath(req);
      if (path.startsWith('/api/')) {
        restByMethod.inc({ method });
        restByView.inc({ view, method });
      }
      if (path === '/graphql/' || path === '/graphql') graphql.inc();
      const route = routeLabel(req.scope?.route);
      duration.observe({ route, method, status }, seconds);
      statements.observe({ route, method }, req.scope?.statements ?? 0);
    },
  };
}
