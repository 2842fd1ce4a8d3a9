export { EmbeddedDatabase } from './postgres.js';
export { EmbeddedRedis } from './redis.js';
export { alive, freePort, gone, selfIdentity, stillRunning, stopping, stopSignal, stopWhenGone } from './processes.js';
