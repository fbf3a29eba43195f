// Reading Slurm's words: scontrol and sacct job lines, the job phases, srun's labelled output and its reports of
// how tasks and nodes ended, and the sentence a failed job's run ends with. The lines are copied from Slurm 22.05.
import { describe, expect, it } from 'vitest';
import { LineSplitter, parseOutputLine } from '../../src-main/cluster/slurm/job-output.js';
import { describeJobEnd, parseSacctJob, parseScontrolJob, phaseOf } from '../../src-main/cluster/slurm/job-state.js';

describe('job state', () => {
  it('reads scontrol show job -o', () => {
    const line = 'JobId=7 JobName=dsmc-collide-box UserId=root(0) GroupId=root(0) Priority=4294901759 JobState=FAILED Reason=NonZeroExitCode Dependency=(null) ExitCode=3:0 NodeList=n[1-2] BatchHost=n1';
    expect(parseScontrolJob(line)).toEqual({ jobId: '7', state: 'FAILED', reason: 'NonZeroExitCode', nodes: 'n[1-2]', exitCode: '3:0' });
    expect(parseScontrolJob('JobId=8 JobState=PENDING Reason=Priority NodeList=(null)')).toEqual({ jobId: '8', state: 'PENDING', reason: 'Priority', nodes: '', exitCode: '' });
    expect(parseScontrolJob('slurm_load_jobs error: Invalid job id specified')).toBeNull();
  });

  it('reads sacct -P', () => {
    expect(parseSacctJob('12|TIMEOUT|None|n3|0:0\n', '12')).toEqual({ jobId: '12', state: 'TIMEOUT', reason: 'None', nodes: 'n3', exitCode: '0:0' });
    expect(parseSacctJob('12|CANCELLED by 1000|None|None assigned|0:0\n', '12')?.state).toBe('CANCELLED');
    expect(parseSacctJob('13|COMPLETED|None|n1|0:0\n', '12')).toBeNull();
  });

  it('classifies states into waiting, running and ended', () => {
    for (const s of ['PENDING', 'CONFIGURING', 'REQUEUED', 'SUSPENDED']) expect(phaseOf(s)).toBe('waiting');
    for (const s of ['RUNNING', 'COMPLETING']) expect(phaseOf(s)).toBe('running');
    for (const s of ['COMPLETED', 'FAILED', 'CANCELLED by 0', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE']) expect(phaseOf(s)).toBe('ended');
  });

  it('explains a job that ended without completing, with the fix', () => {
    expect(describeJobEnd({ jobId: '9', state: 'TIMEOUT', reason: 'TimeLimit', nodes: 'n1', exitCode: '0:15' }, 'cluster profile "gpu"'))
      .toBe('Slurm job 9 ended TIMEOUT (TimeLimit), exit code 0:15; it reached its time limit: raise timeLimit in cluster profile "gpu" or run fewer steps');
    expect(describeJobEnd({ jobId: '9', state: 'NODE_FAIL', reason: 'None', nodes: 'n1', exitCode: '' }, 'p')).toMatch(/a node of the job failed/);
  });
});

describe('job output', () => {
  it('splits labelled rank lines, task ends, node failures and job lines', () => {
    expect(parseOutputLine(' 3: rank 3 on n2: peer socket binds tcp://10.0.0.2:*')).toEqual({ kind: 'rank', rank: 3, text: 'rank 3 on n2: peer socket binds tcp://10.0.0.2:*' });
    expect(parseOutputLine('12: x')).toEqual({ kind: 'rank', rank: 12, text: 'x' });
    expect(parseOutputLine('srun: error: n2: task 1: Exited with exit code 3')).toMatchObject({ kind: 'task-end', rank: 1, host: 'n2', code: 3, signal: null });
    expect(parseOutputLine('srun: error: n1: task 0: Killed')).toMatchObject({ kind: 'task-end', rank: 0, host: 'n1', code: null, signal: 'SIGKILL' });
    expect(parseOutputLine('srun: error: n1: task 0: Terminated')).toMatchObject({ kind: 'task-end', signal: 'SIGTERM' });
    expect(parseOutputLine('srun: error: Node failure on n2')).toEqual({ kind: 'node-failure', host: 'n2', text: 'srun: error: Node failure on n2' });
    expect(parseOutputLine('srun: Job step aborted: Waiting up to 32 seconds for job step to finish.')).toMatchObject({ kind: 'job' });
  });

  it('keeps an unfinished line for the next chunk', () => {
    const s = new LineSplitter();
    expect(s.push('0: a\n1: b')).toEqual(['0: a']);
    expect(s.push('c\r\n0: d\n')).toEqual(['1: bc', '0: d']);
    expect(s.push('tail')).toEqual([]);
    expect(s.flush()).toEqual(['tail']);
  });
});
