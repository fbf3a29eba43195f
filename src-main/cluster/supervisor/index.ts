// The rank supervisor's public surface: launchRanks on the orchestrator side, exitWhenSupervisorGone in a rank.
export { launchRanks } from './launch-ranks.js';
export { RankFailedError, failureText } from './errors.js';
export { exitWhenSupervisorGone, SUPERVISOR_PID_ENV } from './supervisor-watch.js';
export type {
  FailureReason, LaunchOptions, LogLineInfo, RankExit, RankFailure, RankGroup, RankLaunchSpec, RunOutcome, SupervisedChannel,
} from './types.js';
