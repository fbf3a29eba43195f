// The transport's public surface: OrchestratorChannel (orchestrator side), RankChannel (rank side), the message
// schemas and the errors.
export { OrchestratorChannel, type Incoming, type OrchestratorChannelOptions, type ReceiveFilter } from './orchestrator-channel.js';
export { RankChannel, type RankChannelOptions } from './rank-channel.js';
export type { PeerIncoming } from './peer-links.js';
export { EndpointPlan, parseTransportSpec, type TransportSpec } from './endpoints.js';
export { encodeMessage, decodeMessage, frameAs, type Decoded, type Frame } from './message-codec.js';
export * from './messages.js';
export {
  ChannelClosedError, MessageValidationError, StopRequestedError, TransportError, TransportTimeoutError,
} from './errors.js';
export { PEER_SHM_ENV, PeerFolder, peerShmEnabled } from './peer-folder.js';
export { RANK_ENV, readRankEnvironment, rankEnvironmentVariables, type RankEnvironment } from './rank-environment.js';
