import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { freePort } from '../e2e/browser.ts';
import { descendantsOf, ensureDebianPackage, ensureResultsDir, sleep } from './harness.ts';

/** nginx (Debian's package) on 127.0.0.1 serving files from a folder of its own: the baseline for delivery. */
export interface Nginx {
  url: string;
  /** Put a file at this URL path (e.g. `/api/Image/Get/camera/X.jpg`), so both sides answer the same path. */
  put(path: string, bytes: Buffer | string): Promise<void>;
  /** Answer this exact path with a 302 to `location`, as the portal's picture URLs do (reloads nginx). */
  redirect(path: string, location: string): Promise<void>;
  pids(): number[];
  close(): Promise<void>;
}

export async function startNginx(): Promise<Nginx> {
  const binary = ensureDebianPackage('nginx', 'nginx-light');
  const dir = await ensureResultsDir(`nginx-${process.pid}`);
  const www = join(dir, 'www');
  const redirects = join(dir, 'redirects');
  await mkdir(join(dir, 'tmp'), { recursive: true });
  await mkdir(www, { recursive: true });
  await mkdir(redirects, { recursive: true });
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  // A stock static-file setup: sendfile, keep-alive, no access log (the portal writes none either).
  const config = `${asRoot ? 'user root;\n' : ''}daemon off;
worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'tmp')};
  proxy_temp_path ${join(dir, 'tmp')};
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  types { image/jpeg jpg; application/json json; text/html html; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    include ${redirects}/*.conf;
  }
}
`;
  const configFile = join(dir, 'nginx.conf');
  await writeFile(configFile, config);
  const check = spawnSync(binary, ['-t', '-p', dir, '-c', configFile, '-e', join(dir, 'error.log')]);
  if (check.status !== 0) throw new Error(`nginx refused its configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', configFile, '-e', join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(`${url}/`).catch(() => null)) break;
    await sleep(100);
  }
  return {
    url,
    async put(path, bytes) {
      const target = join(www, ...path.split('/').filter(Boolean));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
    },
    async redirect(path, location) {
      if (/["\\\s;{}]/.test(path + location)) throw new Error(`not a plain redirect: ${path} → ${location}`);
      const file = join(redirects, `${createHash('sha1').update(path).digest('hex')}.conf`);
      await writeFile(file, `location = "${path}" { return 302 "${location}"; }\n`);
      child.kill('SIGHUP');
      // The reload is asynchronous: the new workers answer once they are up.
      for (let i = 0; i < 100; i++) {
        const answer = await fetch(`${url}${path}`, { redirect: 'manual' }).catch(() => null);
        await answer?.arrayBuffer();
        if (answer?.status === 302 && answer.headers.get('location')?.endsWith(location)) return;
        await sleep(100);
      }
      throw new Error(`nginx does not redirect ${path} after its reload`);
    },
    pids: () => (child.pid ? [child.pid, ...descendantsOf(child.pid)] : []),
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
