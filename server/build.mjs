// Bundles the server and the contract into dist/main.js (and chunks of what it imports lazily); npm packages stay external and load from node_modules.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@petreg/'));

// A fresh folder: chunks are named by their content, and an earlier build's would stay beside these.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  // What main.js imports only when asked (the bucket's adapter and its AWS SDK) stays in chunks of its own, so a start without it never loads it.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, 'libphonenumber-js', 'dayjs'],
  logLevel: 'warning',
});
