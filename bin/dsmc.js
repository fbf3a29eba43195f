#!/usr/bin/env node
// Entry of the `dsmc` command: runs the compiled CLI (npm install builds it into out/).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = fileURLToPath(new URL('../out/src-main/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('dsmc: the TypeScript build is missing (out/). Run `npm install` or `npm run build` in the project folder.\n');
  process.exit(1);
}
const { main: run } = await import(pathToFileURL(main).href);
process.exitCode = await run(process.argv.slice(2));
