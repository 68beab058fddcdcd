// Starts the built portal with the Node running this script, as `npm start` does (a new data folder,
// a free port), waits for its health check, asks for the home page and one API call, and stops it.
// Any failure, or any warning Node prints (a deprecation), fails the run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const server = createServer().listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address();
server.close();

const dataDir = mkdtempSync(join(tmpdir(), 'petreg-smoke-'));
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
const portal = spawn(process.execPath, ['server/dist/main.js'], { env, stdio: ['ignore', 'inherit', 'pipe'] });
let stderr = '';
portal.stderr.on('data', (chunk) => {
  stderr += chunk;
  process.stderr.write(chunk);
});
const base = `http://127.0.0.1:${port}`;

async function smoke() {
  for (let waited = 0; ; waited += 500) {
    if ((await fetch(`${base}/api/v2/utilities/health-check`).catch(() => null))?.ok) break;
    if (portal.exitCode !== null) throw new Error(`the portal exited (${portal.exitCode}) before answering`);
    if (waited > 300_000) throw new Error('the portal did not answer its health check within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const home = await fetch(`${base}/`);
  const page = await home.text();
  if (home.status !== 200 || !page.includes('<div id="root"')) throw new Error(`the home page answered ${home.status}`);
  const lookup = await fetch(`${base}/api/v2/public/lookup/985112345678901`);
  const answer = await lookup.json();
  if (lookup.status !== 200 || answer.succeeded !== true || answer.result?.chip?.number !== '985112345678901') {
    throw new Error(`the chip lookup answered ${lookup.status} ${JSON.stringify(answer)}`);
  }
  portal.kill('SIGTERM');
  const [code] = await once(portal, 'exit');
  if (code !== 0) throw new Error(`the portal stopped with exit code ${code}`);
  if (/\(node:\d+\) \w*Warning/.test(stderr)) throw new Error('Node printed a warning (above)');
}

try {
  await smoke();
  console.log(`The built portal starts and answers on Node ${process.versions.node}.`);
} catch (error) {
  console.error(`Smoke test on Node ${process.versions.node} failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  if (portal.exitCode === null) portal.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
