// Issue 27, item 13: the desktop app installs like any npm project. electron is a dev dependency (npm start opens the
// window), pinned to the Electron electron-builder.yml packages; electron-builder is declared as an optional peer
// dependency pinned to one version, which `npm run dist` and the release workflow fetch (issue 26: electron-builder 26
// pulls packages that want Node 22, and `npm install` on the Node 20 the product supports must print no engine
// warning); CI skips Electron's binary download (this machine cannot reach GitHub); and the release workflow builds
// every target of electron-builder.yml on a runner of its platform and attaches the installers to a draft release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../src-main/services/install-paths.js';

const ROOT = packageRoot();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const builder = parse(read('electron-builder.yml'));
const workflow = parse(read('.github/workflows/release.yml'));

/** The installer file extension of each electron-builder target this project uses. */
const TARGET_EXTENSIONS: Record<string, string> = { nsis: 'exe', dmg: 'dmg', AppImage: 'AppImage', deb: 'deb' };

/** The `run` texts of a workflow job's steps. */
function runs(job: { steps: { run?: string }[] }): string[] {
  return job.steps.flatMap((s) => (s.run ? [s.run] : []));
}

describe('desktop app packaging', () => {
  it('declares electron as a dev dependency pinned to electron-builder.yml\'s version, and electron-builder as an optional peer that dist fetches', () => {
    expect(Object.keys(pkg.devDependencies)).toContain('electron');
    for (const section of ['dependencies', 'optionalDependencies', 'devDependencies']) {
      if (section !== 'devDependencies') expect(Object.keys(pkg[section] ?? {}), `${section} (electron-builder refuses electron there)`).not.toContain('electron');
      expect(Object.keys(pkg[section] ?? {}), `${section}: electron-builder is not installed by npm install`).not.toContain('electron-builder');
    }
    expect(pkg.devDependencies.electron).toBe(builder.electronVersion);
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.packages['node_modules/electron']?.version, 'run npm install --package-lock-only').toBe(builder.electronVersion);
    expect(lock.packages['node_modules/electron-builder'], 'an optional peer is not installed').toBeUndefined();
    const version: string = pkg.peerDependencies['electron-builder'];
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.peerDependenciesMeta['electron-builder'].optional).toBe(true);
    expect(pkg.scripts.dist).toBe(`npm run build && npx --yes electron-builder@${version} --config electron-builder.yml --publish never`);
    // npm 12 runs only approved install scripts: electron's downloads the binary `npm start` runs
    expect(pkg.allowScripts.electron).toBe(true);
    expect(pkg.scripts.start).toMatch(/npm run build && electron \.$/);
    expect(pkg.main).toBe('out/src-main/electron/main.js');
  });

  it('installs nothing that wants a newer Node than package.json states (no EBADENGINE warning from npm install)', async () => {
    const { default: semver } = await import('semver');
    const lock = JSON.parse(read('package-lock.json'));
    const stated: string = semver.minVersion(pkg.engines.node)!.version;
    const wanting = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(stated, p.engines.node))
      .map(([name, p]) => `${name} wants node ${p.engines!.node}`);
    expect(wanting, `on Node ${stated}`).toEqual([]);
  });

  it('skips the Electron binary download in CI before npm ci', () => {
    const ci = read('.ci/run');
    const skip = ci.search(/^export ELECTRON_SKIP_BINARY_DOWNLOAD=1$/m);
    expect(skip, '.ci/run must export ELECTRON_SKIP_BINARY_DOWNLOAD=1').toBeGreaterThan(0);
    expect(ci.indexOf('npm ci --no-audit')).toBeGreaterThan(skip);
  });

  it('builds every electron-builder target on a runner of its platform and uploads each installer', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    const job = workflow.jobs.installers;
    expect(job['runs-on']).toBe('${{ matrix.os }}');
    expect([...job.strategy.matrix.os].sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    const commands = runs(job).join('\n');
    expect(commands).toMatch(/^npm ci\b/m);
    expect(commands).toMatch(/^npm run dist --/m);
    expect(commands).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    const targets = [builder.win.target, builder.mac.target, builder.linux.target].flat();
    const uploaded: string = job.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-artifact'))!.with.path;
    for (const t of targets) expect(uploaded, `installer of target ${t}`).toContain(`dist/*.${TARGET_EXTENSIONS[t]}`);
  });

  it('drafts a release with the installers only for version tags', () => {
    const release = workflow.jobs.release;
    expect(release.needs).toBe('installers');
    expect(release.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(release.permissions.contents).toBe('write');
    expect(runs(release).join('\n')).toMatch(/gh release create "\$GITHUB_REF_NAME" installers\/\* [^\n]*--draft/);
  });
});
