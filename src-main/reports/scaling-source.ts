// What the scaling report reads from the run database, as an interface (RunStore implements it; tests can
// fake it), and the loader that gathers a study's runs with their phases and per-rank steps.
import type { ScalingInput } from '../common/reports/scaling-model.js';
import type { PhaseRecord, RankStepRecord, StudyRecord } from '../common/run-record.js';

/** The read side of the run database that the scaling report uses. */
export interface StudySource {
  getStudy(id: number): StudyRecord;
  getPhases(runId: number): PhaseRecord[];
  getRankSteps(runId: number): RankStepRecord[];
}

/** Everything a scaling report needs about one study. */
export function loadScalingInput(source: StudySource, studyId: number): ScalingInput {
  const { runs, ...study } = source.getStudy(studyId);
  return {
    study,
    runs: runs.map((r) => ({ gpus: r.gpus, run: r.run, phases: source.getPhases(r.runId), rankSteps: source.getRankSteps(r.runId) })),
  };
}
