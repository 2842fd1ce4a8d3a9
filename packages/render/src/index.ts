export { FrameReader, SyncChannel, frame } from './channel.js';
export { RenderAborted, RenderPool, type BridgeHandler, type PoolLimits } from './pool.js';
export type {
  BridgeCalls, BridgeMethod, BridgeReply, BridgeRequest, FromRenderer, Json, JsonObject, ModelShape, ObjectQuery, Origin, PlannedCall, RenderReply, RenderRequest,
  TemplateRow, ToRenderer,
} from './messages.js';
