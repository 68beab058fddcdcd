import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package folder, found from this module whether it runs from src/ (tsx, tests)
 * or bundled into the chunks of dist/.
 */
function findServerRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'drizzle'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the server folder (drizzle migrations missing)');
    dir = parent;
  }
  return dir;
}

export const serverRoot = findServerRoot();
export const migrationsFolder = join(serverRoot, 'drizzle');
export const webDistFolder = join(serverRoot, '..', 'web', 'dist');
/** The web build's server entry, which renders the finder's pages (web/src/ssr.tsx), beside the web build. */
export const webServerEntryOf = (webRoot: string) => join(webRoot, '..', 'dist-ssr', 'ssr.js');
