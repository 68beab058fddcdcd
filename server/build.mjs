// Bundles the server and the contract into dist/main.js, a small entry, and the chunks it loads (the portal,
// start.ts, and what it imports lazily), with the
// pure-JS libraries every start loads file by file (below) and what they import; the other npm packages
// stay external and load from node_modules: native (argon2, sharp), WASM (PGlite), worker threads (pino), loaded only when
// configured or first used (AWS SDK, Stripe, Twilio, PDF and QR code), or the framework itself.
import { readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// Node 24 looks for a package.json beside each module file it loads and in each folder above it: a start
// read 4,149 package.json files (255 on Node 20) for its 806 module files, and took 3.0 to 3.3 s to its
// first answer against 2.6 to 2.8 on Node 20. These libraries and what they import are about 450 of those
// files; bundled, a restart answers in 2.1 to 2.2 s on Node 24 (2.3 to 2.6 on Node 20).
const bundled = ['drizzle-orm', 'zod', 'fastify-type-provider-zod', 'jose', 'libphonenumber-js', 'dayjs', '@fastify/swagger'];
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@petreg/') && !bundled.includes(name));

// A fresh folder: chunks are named by their content, and an earlier build's would stay beside these.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

const { metafile } = await build({
  // From this folder whichever folder runs it, as the rmSync above and the check below assume.
  absWorkingDir: fileURLToPath(new URL('.', import.meta.url)),
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  // main.js loads the portal (start.ts) as a chunk once its first steps are taken; what the portal imports only when asked
  // (the bucket's adapter and its AWS SDK) stays in chunks of its own, so a start without it never loads it.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  // The CommonJS among the bundled libraries (@fastify/swagger and what it imports, dayjs) require Node's modules and the external packages.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});

// main.js must take its first steps before any library loads (see main.ts): what it imports statically,
// and what that imports, may be Node's own modules and the project's files, never an npm package. A static
// import added to main.ts would otherwise quietly undo them.
const entry = Object.keys(metafile.outputs).find((output) => metafile.outputs[output].entryPoint === 'src/main.ts');
if (!entry) throw new Error('the build has no output for src/main.ts');
const visited = new Set();
const toVisit = [entry];
while (toVisit.length > 0) {
  const output = toVisit.pop();
  if (visited.has(output)) continue;
  visited.add(output);
  const { inputs, imports } = metafile.outputs[output];
  // Only a dynamic import waits for those steps; a require() runs where it stands.
  const libraries = imports.filter((i) => i.external && i.kind !== 'dynamic-import' && !isBuiltin(i.path)).map((i) => i.path);
  const packages = Object.keys(inputs).filter((input) => input.includes('node_modules/'));
  const loaded = [...libraries, ...packages];
  if (loaded.length > 0) {
    const named = `${loaded.slice(0, 5).join(', ')}${loaded.length > 5 ? ` and ${loaded.length - 5} more` : ''}`;
    const ours = Object.keys(inputs).filter((input) => !packages.includes(input));
    throw new Error(
      `${entry} would load npm packages before its first steps (in ${output}, from ${ours.join(', ') || 'no file of ours'}): ${named}; import them from start.ts, not from main.ts or what it imports`,
    );
  }
  toVisit.push(...imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path));
}
