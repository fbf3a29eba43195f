// Vitest's file order when it has no timings of its own (a fresh clone, as in CI): the files that took longest in
// the last measured run first (test/durations.json, seconds per file), so that two workers do not end with one of them
// alone on a long file; files not listed go after them, larger first as vitest does. With vitest's own cache (results
// of an earlier run here) its order stands: failed first, then longest first.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per test file (path relative to the project root) of the last measured whole run. */
const DURATIONS: Record<string, number> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8'));

export class LongestFirstSequencer extends BaseSequencer {
  /** The files in the order to start them. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`));
    if (cached) return super.sort(files);
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => DURATIONS[relative(this.ctx.config.root, f.moduleId)] ?? -1;
    // a stable sort: unlisted files (-1) keep vitest's order after the listed ones
    return [...base].sort((a, b) => seconds(b) - seconds(a));
  }
}
