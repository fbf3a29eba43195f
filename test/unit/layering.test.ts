// Enforces the layering of ARCHITECTURE.md by reading every import of every .ts file under src-main/
// and src-renderer/ (static import, export ... from, import type, import x = require(), dynamic
// import() and import('x') types), parsed with the TypeScript compiler so comments and strings
// never count:
//   - src-main/common imports only src-main/common, plus npm packages that run anywhere
//     (no node:* builtins, no electron, no Node-only packages); it uses no Node or DOM globals either.
//   - src-renderer imports only src-main/common and src-renderer, plus npm packages
//     (no node:* builtins, no electron).
//   - src-main/solver never imports electron, src-main/store, src-main/reports or src-main/server.
//   - src-main/server and src-main/electron only adapt the contract: they import src-main/common and
//     src-main/services, never the store, solver, reports, cases or cluster directly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCANNED = ['src-main', 'src-renderer'];

/** npm packages that only run under Node: allowed in services, never in common/ (the renderer imports it). */
const NODE_ONLY_PACKAGES = new Set(['webgpu', 'better-sqlite3', 'cli-progress', 'ws']);
/** Globals of Node or of the DOM that environment-free code must not touch. */
const ENV_GLOBALS = new Set([
  'process', 'Buffer', 'global', '__dirname', '__filename', 'require', 'module',
  'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'HTMLElement',
]);

/** One import found in a file (1-based line). */
interface ImportRef {
  specifier: string;
  line: number;
}

/** One broken rule: which file, which import, and why. */
interface Violation {
  file: string;
  line: number;
  what: string;
  rule: string;
}

/** Line (1-based) of a position in a source file. */
function lineOf(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

/** Every module specifier in a TypeScript source text; non-literal dynamic imports come back as '<dynamic>'. */
function importsOf(text: string, fileName = 'x.ts'): ImportRef[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const add = (expr: ts.Node | undefined, at: ts.Node) => {
    if (expr && ts.isStringLiteralLike(expr)) out.push({ specifier: expr.text, line: lineOf(sf, at.getStart(sf)) });
    else out.push({ specifier: '<dynamic>', line: lineOf(sf, at.getStart(sf)) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Uses of Node or DOM globals (free identifiers, not property names or declarations). */
function envGlobalsOf(text: string, fileName = 'x.ts'): ImportRef[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && ENV_GLOBALS.has(node.text)) {
      const p = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        (ts.isQualifiedName(p) && p.right === node) ||
        ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isPropertyDeclaration(p) ||
          ts.isMethodDeclaration(p) || ts.isMethodSignature(p) || ts.isVariableDeclaration(p) ||
          ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isBindingElement(p) ||
          ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.name === node);
      if (!isName) out.push({ specifier: node.text, line: lineOf(sf, node.getStart(sf)) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Repo-relative folder layer of a repo-relative file path: 'src-main/common', 'src-renderer', ... */
function layerOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'src-main' && parts.length > 2) return `src-main/${parts[1]}`;
  return parts[0];
}

/** A bare specifier's package name ('zod', '@scope/pkg'), or null for relative paths. */
function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || spec.startsWith('/')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** True for Node builtins, with or without the node: prefix. */
function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);
}

/** True for electron and its subpaths. */
function isElectron(spec: string): boolean {
  return spec === 'electron' || spec.startsWith('electron/');
}

/** Checks one file's imports (and, for common/, its globals) against the layering rules. */
function checkFile(file: string, text: string): Violation[] {
  const layer = layerOf(file);
  const out: Violation[] = [];
  const bad = (line: number, what: string, rule: string) => out.push({ file, line, what, rule });
  for (const { specifier, line } of importsOf(text, file)) {
    const what = `import '${specifier}'`;
    if (specifier === '<dynamic>') {
      if (layer === 'src-main/common' || layer === 'src-renderer' || layer === 'src-main/solver') {
        bad(line, 'import(<non-literal>)', `${layer} may only use dynamic import() with a literal path, so the layering can be checked`);
      }
      continue;
    }
    const pkg = packageOf(specifier);
    const target = pkg === null ? relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join('/') : null;
    const targetLayer = target === null ? null : layerOf(target);
    if (layer === 'src-main/common') {
      if (pkg === null && targetLayer !== 'src-main/common') bad(line, what, 'src-main/common imports only src-main/common');
      else if (pkg !== null && isBuiltin(specifier)) bad(line, what, 'src-main/common must not import Node builtins (the renderer imports it)');
      else if (pkg !== null && isElectron(specifier)) bad(line, what, 'src-main/common must not import electron');
      else if (pkg !== null && NODE_ONLY_PACKAGES.has(pkg)) bad(line, what, `src-main/common must not import the Node-only package ${pkg}`);
    } else if (layer === 'src-renderer') {
      if (pkg === null && targetLayer !== 'src-main/common' && targetLayer !== 'src-renderer') {
        bad(line, what, 'src-renderer imports only src-main/common and src-renderer');
      } else if (pkg !== null && isBuiltin(specifier)) bad(line, what, 'src-renderer must not import Node builtins');
      else if (pkg !== null && isElectron(specifier)) bad(line, what, 'src-renderer must not import electron (use the contract proxy)');
      else if (pkg !== null && NODE_ONLY_PACKAGES.has(pkg)) bad(line, what, `src-renderer must not import the Node-only package ${pkg}`);
    } else if (layer === 'src-main/solver') {
      if (pkg !== null && isElectron(specifier)) bad(line, what, 'src-main/solver never imports electron');
      const forbidden = ['src-main/store', 'src-main/reports', 'src-main/server', 'src-main/electron'];
      if (targetLayer !== null && forbidden.includes(targetLayer)) bad(line, what, `src-main/solver never imports ${targetLayer}`);
    } else if (layer === 'src-main/server' || layer === 'src-main/electron') {
      const allowed = ['src-main/common', 'src-main/services', layer];
      if (targetLayer !== null && !allowed.includes(targetLayer)) {
        bad(line, what, `${layer} only adapts the contract: use src-main/services, not ${targetLayer}`);
      }
    }
  }
  if (layer === 'src-main/common') {
    for (const { specifier, line } of envGlobalsOf(text, file)) {
      bad(line, `global ${specifier}`, 'src-main/common must not use Node or DOM globals');
    }
  }
  return out;
}

/** Every .ts/.tsx/.mts/.cts file under a repo-relative folder (none when it does not exist yet). */
function tsFiles(folder: string): string[] {
  const abs = join(ROOT, folder);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(m|c)?tsx?$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
    out.push(relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return out.sort();
}

/** One line per violation: file:line: what - rule. */
function describeViolations(v: Violation[]): string[] {
  return v.map((x) => `${x.file}:${x.line}: ${x.what} - ${x.rule}`);
}

describe('layering (ARCHITECTURE.md)', () => {
  const files = SCANNED.flatMap(tsFiles);

  it('finds the source files', () => {
    expect(files.filter((f) => f.startsWith('src-main/common/')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('src-main/solver/')).length).toBeGreaterThan(0);
  });

  it('every import under src-main/ and src-renderer/ follows the layering rules', () => {
    const violations = files.flatMap((f) => checkFile(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(describeViolations(violations)).toEqual([]);
  });
});

describe('layering checker', () => {
  it('reads every import form and ignores comments and strings', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import './side-effect.js';",
      "export { c } from './c.js';",
      "export * from 'zod';",
      "import fs = require('node:fs');",
      "const m = await import('./dyn.js');",
      "type T = typeof import('electron');",
      "const x = import(name);",
      "// import { no } from 'commented';",
      "/* await import('block-commented') */",
      "const s = \"import { q } from 'in-a-string'\";",
    ].join('\n');
    expect(importsOf(text).map((r) => `${r.line}:${r.specifier}`)).toEqual([
      '1:./a.js', '2:../b.js', '3:./side-effect.js', '4:./c.js', '5:zod', '6:node:fs', '7:./dyn.js', '8:electron', '9:<dynamic>',
    ]);
  });

  it('flags a common/ file that reaches outside common/ or into Node', () => {
    const text = [
      "import { z } from 'zod';",
      "import { x } from './physics.js';",
      "import { createHash } from 'node:crypto';",
      "import { readFileSync } from 'fs';",
      "import { openGpu } from '../solver/gpu/device.js';",
      "import { ipcRenderer } from 'electron';",
      "const w = process.env.HOME;",
      "const o = { process: 1 }; o.process;",
    ].join('\n');
    expect(describeViolations(checkFile('src-main/common/bad.ts', text)).map((s) => s.split(' - ')[0])).toEqual([
      "src-main/common/bad.ts:3: import 'node:crypto'",
      "src-main/common/bad.ts:4: import 'fs'",
      "src-main/common/bad.ts:5: import '../solver/gpu/device.js'",
      "src-main/common/bad.ts:6: import 'electron'",
      'src-main/common/bad.ts:7: global process',
    ]);
  });

  it('flags the renderer importing anything but common/ and itself', () => {
    const text = [
      "import { ref } from 'vue';",
      "import { parseCase } from '../src-main/common/case-schema.js';",
      "import Chart from './components/charts/Chart.vue';",
      "import { runCase } from '../src-main/solver/run-case.js';",
      "import { readFileSync } from 'node:fs';",
      "const e = await import('electron');",
    ].join('\n');
    expect(checkFile('src-renderer/main.ts', text).map((v) => v.line)).toEqual([4, 5, 6]);
  });

  it('flags the solver importing electron, store, reports or server', () => {
    const text = [
      "import { createHash } from 'node:crypto';",
      "import { parseCase } from '../../common/case-schema.js';",
      "import { prelaunchCheck } from '../../cases/prelaunch.js';",
      "import { openDb } from '../../store/db.js';",
      "import { profile } from '../../reports/profile.js';",
      "const s = await import('../../server/host.js');",
      "import { app } from 'electron';",
    ].join('\n');
    expect(checkFile('src-main/solver/gpu/x.ts', text).map((v) => v.line)).toEqual([4, 5, 6, 7]);
  });

  it('flags the hosts (server, electron) reaching past the services', () => {
    const text = [
      "import { createServer } from 'node:http';",
      "import { dispatch } from '../common/contract/contract.js';",
      "import { StudioService } from '../services/studio-service.js';",
      "import { RunStore } from '../store/run-store.js';",
      "import { runCase } from '../solver/run-case.js';",
      "import { app } from 'electron';",
    ].join('\n');
    expect(checkFile('src-main/server/x.ts', text).map((v) => v.line)).toEqual([4, 5]);
    expect(checkFile('src-main/electron/x.ts', text).map((v) => v.line)).toEqual([4, 5]);
  });
});
