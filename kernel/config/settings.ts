import {
  array, boolean, defaulted, enums, integer, min, nullable, object, optional, record, refine, string, unknown,
  type Infer, type Struct,
} from 'superstruct';
import { serviceUrl } from './urls.js';

/** How an environment variable's text becomes a setting value. */
export type EnvParser = 'string' | 'integer' | 'boolean' | 'list' | 'json';

/** One setting: its schema, how the environment spells it and what it means. */
function setting<T, S>(struct: Struct<T, S>, env: EnvParser, doc: string) {
  return { struct, env, doc };
}

const nonNegative = () => min(integer(), 0);

/** An origin with its scheme, as Django 4+ wants CSRF_TRUSTED_ORIGINS: `https://host[:port]`, `*.` for subdomains. */
const trustedOrigin = () =>
  refine(string(), 'origin', (value) =>
    /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i.test(value) || `must be an origin with its scheme (https://netbox.example.com, https://*.example.com); got "${value}"`);

/**
 * Every setting Patchbay reads, in one table: the schema, how the environment spells it and what it means.
 * `manage settings` prints this table; docs/configuration.md's settings section is generated from it.
 */
export const SETTINGS = {
  DATABASE_URL: setting(
    optional(nullable(serviceUrl('PostgreSQL', ['postgres', 'postgresql'], 'postgres://netbox:secret@db.example.com:5432/netbox', true))),
    'string',
    'PostgreSQL URL. Unset: an embedded PostgreSQL under DATA_DIR.',
  ),
  DATABASE_POOL_SIZE: setting(
    defaulted(min(integer(), 2), 10),
    'integer',
    'Database connections each process (every `runserver` process, every `manage worker`) may hold at once, besides one for LISTEN; a request finding all busy waits for one (503 after 10 s). At least 2: migrations hold one for their lock while they run on another.',
  ),
  DATA_DIR: setting(defaulted(string(), './data'), 'string', 'Where the embedded PostgreSQL keeps its files.'),
  REDIS_URL: setting(
    optional(nullable(serviceUrl('Redis', ['redis', 'rediss'], 'redis://redis.example.com:6379/0'))),
    'string',
    'Redis URL for the background queue (bull). Unset: `runserver` starts a Redis of its own under DATA_DIR when `redis-server` is installed, else jobs are rows in PostgreSQL, shared by every process.',
  ),
  REDIS_PREFIX: setting(defaulted(string(), 'patchbay'), 'string', 'Prefix of the queue\'s keys in Redis: servers and workers sharing a Redis and a prefix share the queue.'),
  RUN_JOBS: setting(defaulted(boolean(), true), 'boolean', 'The server process runs background jobs too; set false when `manage worker` processes run them.'),
  JOB_CONCURRENCY: setting(defaulted(min(integer(), 1), 10), 'integer', 'Jobs one process runs at once (webhook deliveries mostly wait on the network).'),
  JOB_LOCK_SECONDS: setting(
    defaulted(min(integer(), 2), 30),
    'integer',
    'A job whose process died (or hangs) has that attempt counted as failed after this many seconds, then goes back to the queue after its backoff (or fails once its attempts are spent).',
  ),
  JOB_ATTEMPTS: setting(
    defaulted(min(integer(), 1), 3),
    'integer',
    'Runs a tracked job (/api/core/jobs/) gets when its process dies under it (killed, out of memory), JOB_RETRY_DELAY apart and doubling; then it ends errored. A job that raises is not run again, as in NetBox.',
  ),
  JOB_RETRY_DELAY: setting(
    defaulted(min(integer(), 0), 10_000),
    'integer',
    'Milliseconds before a tracked job whose process died runs again; each next run waits twice as long.',
  ),
  OUTBOX_SWEEP_SECONDS: setting(
    defaulted(min(integer(), 1), 10),
    'integer',
    'Seconds between tries to enqueue again the work of committed events (webhook deliveries) whose enqueue failed while the queue was unreachable.',
  ),
  WEBHOOK_TIMEOUT: setting(defaulted(min(integer(), 100), 10_000), 'integer', 'Longest a webhook request may take, in milliseconds; longer fails the attempt.'),
  WEBHOOK_ATTEMPTS: setting(defaulted(min(integer(), 1), 5), 'integer', 'Attempts of each webhook delivery, the first included, before it is marked failed.'),
  WEBHOOK_RETRY_DELAY: setting(
    defaulted(min(integer(), 0), 10_000),
    'integer',
    'Milliseconds before the first retry of a failed delivery; each next retry waits twice as long (1×, 2×, 4×, …). An attempt whose process died counts as failed too.',
  ),
  WEBHOOK_RESPONSE_BYTES: setting(
    defaulted(min(integer(), 0), 1024),
    'integer',
    'Bytes of each answer a webhook attempt keeps in the delivery log (the rest is not read); 0 keeps none. Whoever may create webhooks reads these: keep it small where webhooks could reach internal services.',
  ),
  WEBHOOK_REFUSE_LOCAL: setting(
    defaulted(boolean(), false),
    'boolean',
    'Refuse webhook URLs that resolve to a loopback, link-local or unspecified address or to this machine (SSRF guard); off by default, as in NetBox.',
  ),
  HOST: setting(defaulted(string(), '127.0.0.1'), 'string', 'Address the HTTP server binds.'),
  ALLOWED_HOSTS: setting(
    defaulted(array(string()), ['*']),
    'list',
    'Host names the server answers to (`Host` header): names, `.example.com` for a domain and its subdomains, `*` for any. Others get 400.',
  ),
  PORT: setting(defaulted(min(integer(), 0), 8000), 'integer', 'HTTP port (0 picks a free one).'),
  SECRET_KEY: setting(optional(nullable(string())), 'string', 'Secret for signing sessions. Unset: generated once and kept in DATA_DIR/secret_key.'),
  PAGINATE_COUNT: setting(defaulted(min(integer(), 1), 50), 'integer', 'Default page size of REST lists.'),
  MAX_PAGE_SIZE: setting(defaulted(nullable(nonNegative()), 1000), 'integer', 'Largest page a client may ask for; 0 or null removes the maximum (then limit=0 returns everything).'),
  MAX_BODY_SIZE: setting(defaulted(min(integer(), 1), 10 * 1024 * 1024), 'integer', 'Largest request body in bytes; larger ones get 413.'),
  HEADERS_TIMEOUT: setting(
    defaulted(min(integer(), 1), 20),
    'integer',
    'Seconds a client has to send a request\'s headers; a connection still sending them after that is closed (against clients that trickle them).',
  ),
  REQUEST_TIMEOUT: setting(
    defaulted(min(integer(), 1), 120),
    'integer',
    'Seconds a client has to send a whole request, its body included (an upload of MAX_BODY_SIZE on a slow link); then the connection is closed with 408.',
  ),
  WORKERS: setting(
    defaulted(nonNegative(), 0),
    'integer',
    '`runserver` processes sharing the port (node\'s cluster module), each with its own database pool; 0 for one per CPU core. Each also runs jobs when RUN_JOBS is on.',
  ),
  SHUTDOWN_TIMEOUT: setting(
    defaulted(min(integer(), 1), 20),
    'integer',
    'Seconds a stopping server (SIGTERM, SIGINT) lets the requests under way finish before it closes their connections.',
  ),
  STATEMENT_TIMEOUT: setting(
    defaulted(nonNegative(), 30),
    'integer',
    'Seconds one SQL statement may run before PostgreSQL cancels it (the request then gets 503); 0 for no limit. Migrations run without it.',
  ),
  PREPARED_STATEMENTS: setting(
    defaulted(boolean(), true),
    'boolean',
    'Statements the server runs repeatedly are prepared once per database connection (PostgreSQL keeps their plans). Turn off behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).',
  ),
  MAX_BULK_OBJECTS: setting(
    defaulted(min(integer(), 1), 10_000),
    'integer',
    'Most objects one bulk request (a POST, PUT, PATCH or DELETE of a list) may hold; more get 400. Each write is one transaction, holding its locks until it ends.',
  ),
  MAX_FILTER_VALUES: setting(defaulted(min(integer(), 1), 1000), 'integer', 'Most values one query-string filter may be given (`?id=1&id=2…`); more get 400 naming the parameter.'),
  MAX_JSON_DEPTH: setting(defaulted(min(integer(), 1), 100), 'integer', 'Deepest nesting of arrays and objects a JSON request body may hold; deeper ones get 400.'),
  MAX_JSON_KEYS: setting(
    defaulted(min(integer(), 1), 10_000),
    'integer',
    'Most keys one object of a JSON request body (or one form) may hold; more get 400 before the body is parsed (an object of 500,000 keys took V8 seconds).',
  ),
  MAX_JSON_ELEMENTS: setting(
    defaulted(min(integer(), 1), 1_000_000),
    'integer',
    'Most values (object members and array items, at any depth) a JSON request body may hold; more get 400 before it is parsed.',
  ),
  PLUGINS: setting(defaulted(array(string()), []), 'list', 'Third-party plugins to enable: module names or paths (comma-separated in the environment).'),
  PLUGINS_CONFIG: setting(defaulted(record(string(), record(string(), unknown())), {}), 'json', 'Per-plugin settings: {"<plugin>": {...}} (JSON in the environment).'),
  LOG_LEVEL: setting(defaulted(string(), 'info'), 'string', 'error, warn, info or debug.'),
  LOG_FORMAT: setting(defaulted(enums(['text', 'json']), 'text'), 'string', '`text` (readable lines) or `json` (one object per line, for log collectors).'),
  ACCESS_LOG: setting(
    defaulted(boolean(), true),
    'boolean',
    'Log one line per request (at info): request id, user, method, route, path, status, duration and SQL statements.',
  ),
  METRICS_ENABLED: setting(defaulted(boolean(), false), 'boolean', 'Serve Prometheus metrics at /metrics (404 when false), as NetBox does.'),
  METRICS_TOKEN: setting(
    optional(nullable(string())),
    'string',
    'When set, /metrics answers only requests with `Authorization: Bearer <token>` (a Prometheus `bearer_token`); unset, anyone may read it, as in NetBox.',
  ),
  METRICS_PUBLISH_SECONDS: setting(
    defaulted(min(integer(), 1), 5),
    'integer',
    'How often each process (servers, workers) shares its metrics through Redis, so that /metrics of any server sums them all.',
  ),
  LOGIN_REQUIRED: setting(defaulted(boolean(), true), 'boolean', 'Refuse anonymous API requests (EXEMPT_VIEW_PERMISSIONS applies only when false).'),
  EXEMPT_VIEW_PERMISSIONS: setting(defaulted(array(string()), []), 'list', 'Models (`app.model`, or `*` for all but users.*) anyone may view when LOGIN_REQUIRED is false.'),
  DEFAULT_PERMISSIONS: setting(
    defaulted(record(string(), nullable(array(record(string(), unknown())))), {
      'users.view_token': [{ user: '$user' }],
      'users.add_token': [{ user: '$user' }],
      'users.change_token': [{ user: '$user' }],
      'users.delete_token': [{ user: '$user' }],
    }, { strict: true }),
    'json',
    'Permissions every user has: {"<app>.<action>_<model>": [constraints] or null}. Default: users manage their own tokens.',
  ),
  ALLOW_TOKEN_RETRIEVAL: setting(defaulted(boolean(), true), 'boolean', 'Token keys can be read back; when false a key is shown only when the token is created.'),
  TRUSTED_PROXIES: setting(defaulted(array(string()), []), 'list', 'Proxies (IPs or CIDR prefixes) whose X-Forwarded-For header names the client and whose X-Forwarded-Proto names the scheme (https URLs, Secure cookies).'),
  CSRF_TRUSTED_ORIGINS: setting(
    defaulted(array(trustedOrigin()), []),
    'list',
    'Origins besides the server\'s own that browser sessions may send writes from (Django\'s setting: the `Origin` of a write, or its `Referer` over https, must be one): `https://netbox.example.com`, or `https://*.example.com` for a domain and its subdomains.',
  ),
  MAINTENANCE_MODE: setting(defaulted(boolean(), false), 'boolean', 'Refuse writes (503) and stop recording token use.'),
  CHANGELOG_RETENTION: setting(defaulted(min(integer(), 0), 90), 'integer', 'Days change records are kept (the daily extras housekeeping job and `manage housekeeping` delete older ones); 0 keeps them forever.'),
  WEBHOOK_DELIVERY_RETENTION: setting(defaulted(min(integer(), 0), 30), 'integer', 'Days the delivery log keeps a delivered or failed webhook delivery (the daily extras housekeeping job and `manage housekeeping` delete older ones); 0 keeps them forever.'),
  JOB_RETENTION: setting(defaulted(min(integer(), 0), 90), 'integer', 'Days ended jobs stay in /api/core/jobs/ (the daily core housekeeping job deletes older ones); 0 keeps them forever.'),
  MEDIA_ROOT: setting(defaulted(string(), './data/media'), 'string', 'Where uploaded files (image attachments, device type images) are stored.'),
  ENFORCE_GLOBAL_UNIQUE: setting(defaulted(boolean(), true), 'boolean', 'Refuse duplicate prefixes and IP addresses in the global table (outside any VRF).'),
  GRAPHQL_ENABLED: setting(defaulted(boolean(), true), 'boolean', 'Serve the read-only GraphQL API at /graphql/ (404 when false).'),
  GRAPHQL_MAX_ALIASES: setting(defaulted(nonNegative(), 10), 'integer', 'Most aliased fields a GraphQL query may hold.'),
  GRAPHQL_MAX_QUERY_DEPTH: setting(defaulted(nonNegative(), 10), 'integer', 'Deepest nesting of objects a GraphQL query may ask for; 0 for no limit.'),
  GRAPHQL_MAX_COST: setting(
    defaulted(min(integer(), 1), 10_000_000),
    'integer',
    'Most objects a GraphQL query may read, estimated before it runs: the page sizes of its lists multiplied down the tree.',
  ),
  GRAPHQL_ASSUMED_LIST_SIZE: setting(
    defaulted(min(integer(), 1), 20),
    'integer',
    'Objects a nested GraphQL list without `pagination.limit` counts for in that estimate (a root list counts for MAX_PAGE_SIZE).',
  ),
  TEMPLATE_TIMEOUT: setting(
    defaulted(min(integer(), 100), 10_000),
    'integer',
    'Longest a template may render, in milliseconds (config templates, export templates); longer ends it with a 400.',
  ),
  TEMPLATE_MAX_OUTPUT: setting(defaulted(min(integer(), 1024), 10_485_760), 'integer', 'Most characters one template render may produce.'),
  TEMPLATE_WORKERS: setting(defaulted(min(integer(), 1), 2), 'integer', 'Processes each server process renders templates in; renders beyond them wait their turn.'),
  TEMPLATE_MEMORY_MB: setting(
    defaulted(min(integer(), 32), 256),
    'integer',
    'Heap limit of each template process, in MiB: a render that would go past most of it is refused with a 400, and one that exhausts it ends its own process (replaced), never the server.',
  ),
  TOKEN_CACHE_SECONDS: setting(
    defaulted(min(integer(), 0), 5), 'integer',
    'Seconds a process trusts a token it authenticated, without reading it again; changes through Patchbay apply at once, changes in SQL by hand within this time. 0: read every time.',
  ),
  SESSION_COOKIE_AGE: setting(defaulted(min(integer(), 60), 1_209_600), 'integer', 'Lifetime of a browser login session, in seconds.'),
};

export const settingsStruct = object(
  Object.fromEntries(Object.entries(SETTINGS).map(([k, spec]) => [k, spec.struct])) as {
    [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K]['struct'];
  },
);

export type Settings = Infer<typeof settingsStruct>;

export type SettingName = keyof typeof SETTINGS;
