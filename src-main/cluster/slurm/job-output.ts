// Reading a Slurm job's output: `srun --label` lines ("  3: text") split by rank, and srun's own reports of how
// a task ended ("srun: error: node1: task 3: Exited with exit code 1", "... task 2: Killed").
import { open } from 'node:fs/promises';

/** One line of job output. */
export type OutputLine =
  | { kind: 'rank'; rank: number; text: string }
  | { kind: 'task-end'; rank: number; host: string; code: number | null; signal: string | null; text: string }
  | { kind: 'node-failure'; host: string; text: string }
  | { kind: 'job'; text: string };

/** Classifies one line of a job's output. */
export function parseOutputLine(line: string): OutputLine {
  const node = /^srun: error: Node failure on (\S+)/.exec(line);
  if (node) return { kind: 'node-failure', host: node[1], text: line };
  const ended = /^srun: error: (\S+): tasks? (\d+)(?:-\d+)?: (.*)$/.exec(line);
  if (ended) {
    const code = /Exited with exit code (\d+)/.exec(ended[3]);
    const signal = code ? null : /^(Killed|Terminated|Segmentation fault|Aborted|Hangup|Interrupt)/.exec(ended[3]);
    return { kind: 'task-end', rank: Number(ended[2]), host: ended[1], code: code ? Number(code[1]) : null, signal: signal ? signalName(signal[1]) : null, text: line };
  }
  const labelled = /^\s*(\d+): ?(.*)$/.exec(line);
  if (labelled) return { kind: 'rank', rank: Number(labelled[1]), text: labelled[2] };
  return { kind: 'job', text: line };
}

/** The signal name behind srun's wording. */
function signalName(word: string): string {
  return ({ Killed: 'SIGKILL', Terminated: 'SIGTERM', 'Segmentation fault': 'SIGSEGV', Aborted: 'SIGABRT', Hangup: 'SIGHUP', Interrupt: 'SIGINT' } as Record<string, string>)[word] ?? word;
}

/** Splits a growing text into complete lines, keeping the unfinished end for the next chunk. */
export class LineSplitter {
  private rest = '';

  /** The complete lines in `chunk` (plus what was left over before). */
  push(chunk: string): string[] {
    const lines = (this.rest + chunk).split('\n');
    this.rest = lines.pop() ?? '';
    return lines.map((l) => l.replace(/\r$/, ''));
  }

  /** The unfinished last line, once the output is complete. */
  flush(): string[] {
    const r = this.rest;
    this.rest = '';
    return r.length > 0 ? [r] : [];
  }
}

/** Reads what was appended to a file since the last call (the file may not exist yet). */
export class FileTail {
  private offset = 0;

  constructor(readonly path: string) {}

  /** The new text ('' when nothing new or the file is missing). */
  async read(): Promise<string> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch {
      return '';
    }
    try {
      const { size } = await handle.stat();
      if (size <= this.offset) return '';
      const buffer = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
      this.offset += bytesRead;
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  }
}
