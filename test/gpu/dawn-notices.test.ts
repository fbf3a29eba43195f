// Dawn's start-up notices on the default adapter: every line a process prints on stderr when it opens the GPU is one
// isHarmlessDawnNotice recognises (so the rank processes' logs and the app's run child drop exactly those), and
// other warnings are kept; a dsmc command whose stderr is a terminal or a pipe does not show them at all, while other
// lines written to stderr during the adapter request still appear.
import { describe, expect, it } from 'vitest';
import { isHarmlessDawnNotice } from '../../src-main/solver/gpu/dawn-notices.js';
import { runNode, runProcess } from '../helpers/run-process.js';

const DEVICE = new URL('../../out/src-main/solver/gpu/device.js', import.meta.url).href;

describe('Dawn start-up notices', () => {
  it('what opening the GPU prints on stderr is all recognised as harmless', async () => {
    const script = `const { openGpu } = await import(${JSON.stringify(DEVICE)}); const g = await openGpu(); g.device.destroy();`;
    const r = await runNode(['--input-type=module', '-e', script], { timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    for (const l of lines) expect(isHarmlessDawnNotice(l), l).toBe(true);
  });

  it('matches the two limit notices and nothing else', () => {
    expect(isHarmlessDawnNotice('Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.')).toBe(true);
    expect(isHarmlessDawnNotice('Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.')).toBe(true);
    expect(isHarmlessDawnNotice('Warning: something else went wrong')).toBe(false);
    expect(isHarmlessDawnNotice('dsmc run: Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.')).toBe(false);
  });
});

describe('a rank process started by the supervisor', () => {
  it('drops the notices from its log lines and its last-lines tail, and keeps the others', async () => {
    const { RankProcess } = await import('../../src-main/cluster/supervisor/rank-process.js');
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'dsmc-dawn-notice-'));
    try {
      const script = join(dir, 'rank.mjs');
      writeFileSync(script, [
        "process.stderr.write('Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\\n');",
        "process.stderr.write('Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\\n');",
        "process.stderr.write('rank says hello\\n');",
      ].join('\n'));
      const logged: string[] = [];
      const p = new RankProcess({ rank: 0, gpu: 'default', script, args: [], execArgv: [], cwd: undefined, env: process.env, lastLineCount: 10, onLog: (_l, info) => logged.push(info.text) });
      await p.ended;
      expect(logged).toEqual(['rank says hello']);
      expect(p.lastLines()).toEqual(['rank says hello']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const NOTICES = /artificially reduced/;

describe('a dsmc command on a terminal or a pipe', () => {
  it('shows no Dawn notice through a pipe (2>&1 | cat) and on a terminal (script gives it a pty)', async () => {
    const piped = await runProcess('sh', ['-c', `"${process.execPath}" "${BIN}" check collide-box 2>&1 | cat`], { timeout: 60_000 });
    expect(piped.stdout).toMatch(/^adapter: /m);
    expect(piped.stdout).not.toMatch(NOTICES);
    const tty = await runProcess('script', ['-qec', `"${process.execPath}" "${BIN}" check collide-box`, '/dev/null'], { timeout: 60_000 });
    expect(tty.status, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/Pre-launch check: OK/);
    expect(tty.stdout).not.toMatch(NOTICES);
  });

  it('keeps every other line written to stderr while the adapter is requested, in order', async () => {
    const mod = new URL('../../out/src-main/solver/gpu/dawn-notices.js', import.meta.url).href;
    const notice = 'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.';
    const script = `import { writeSync } from 'node:fs'; const { withDawnNoticesMuted } = await import(${JSON.stringify(mod)});
      process.stderr.write('before\\n');
      const v = await withDawnNoticesMuted(async () => { writeSync(2, ${JSON.stringify(notice)} + '\\nnative says something\\n'); return 5; });
      process.stderr.write('after ' + v + '\\n');`;
    const r = await runProcess('sh', ['-c', `"${process.execPath}" --input-type=module -e "$SCRIPT" 2>&1 | cat`], { timeout: 60_000, env: { ...process.env, SCRIPT: script } });
    expect(r.stdout).toBe('before\nnative says something\nafter 5\n');
  });
});
