import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type BuildEnvironmentOptions, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Text files worth compressing: below 1 KB the headers cost more than the bytes saved. */
const compressible = /\.(js|mjs|css|html|svg|json|txt|csv|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each built text file, at the strongest settings,
 * once at build time: the server sends them as they are (the scripts, styles and pages from memory, the
 * other files through @fastify/static's preCompressed) instead of
 * compressing the same bytes for every visitor. The finder pages' build, written into the app's folder
 * after it, compresses only the files it added.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'petreg-precompress',
    // The server entry's build is read by the server, never sent.
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    configResolved: (config) => {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => compressible.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          if (content.length < 1024 || existsSync(`${path}.br`)) return;
          await writeFile(`${path}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }));
          await writeFile(`${path}.gz`, await gzipped(content, { level: constants.Z_BEST_COMPRESSION }));
        }),
      );
    },
  };
}

const browserBuild: BuildEnvironmentOptions = {
  outDir: 'dist',
  emptyOutDir: true,
  // Libraries outside these groups are split by the screens that use them (the router loads screens
  // when opened), so the public lookup and profile carry only what they render: a group of all MUI or
  // of all vendors would load on every page. The groups stay whole, cached across releases.
  rolldownOptions: {
    output: {
      codeSplitting: {
        groups: [
          // Every page needs React and the router.
          { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
          // The phone-number metadata: only the forms that check a phone number load it.
          { name: 'phone', test: /node_modules[\\/]libphonenumber-js[\\/]/ },
          // Only the legal pages render markdown.
          { name: 'markdown', test: /node_modules[\\/]markdown-to-jsx[\\/]/ },
          // The libraries the app's own script needs (MUI's core, emotion, react-query, notistack,
          // react-hook-form): every page loads them anyway, as one file instead of a dozen.
          { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
        ],
      },
    },
  },
};

/**
 * The finder pages' script (`vite build --mode finder`): finder.html, the frame the server renders the
 * lookup page, a pet's profile and a short link's page into, and finder.tsx, which hydrates their
 * islands. Its own build, beside the app's in web/dist: its chunks hold only what those islands use
 * (React, a few MUI components, the lookup's form), never the app's router, screens or vendor group.
 */
const finderBuild: BuildEnvironmentOptions = {
  outDir: 'dist',
  emptyOutDir: false,
  copyPublicDir: false,
  rolldownOptions: { input: 'finder.html' },
};

export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [react(), precompress()],
  // The server entry (src/ssr.tsx, `vite build --ssr`) for web/dist-ssr, which is never sent to browsers:
  // one file with every library in it, React's and MUI's production builds whatever NODE_ENV the
  // server runs with (the development builds render several times slower).
  ssr: { noExternal: true },
  define: isSsrBuild || mode === 'finder' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: {
    port: 5173,
    // The API runs separately in development; in production the server hosts this build.
    proxy: { '/api': 'http://localhost:3000' },
  },
  // One file (the screens it renders inlined): the server imports a new build under a new address,
  // and chunks importing the entry by its plain address would load a second React beside it.
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false, rolldownOptions: { output: { inlineDynamicImports: true } } }
    : mode === 'finder'
      ? finderBuild
      : browserBuild,
}));
