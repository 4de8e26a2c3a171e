import { SERVICES, SITE_DESCRIPTION, SITE_NAME, THEME_COLOR } from '@lakecams/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceTargets } from '../src/service-targets.ts';

const SHELL = fileURLToPath(new URL('../../shell/', import.meta.url));

/**
 * A folder holding the shell's build as the gateway serves it: its template rendered as the build does, with the
 * entry script the build injects, and its public files. Returns the folder to pass as `frontendRoot`.
 */
export async function builtShellRoot(prefix: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const dist = join(root, 'shell', 'dist');
  await mkdir(dist, { recursive: true });
  await cp(join(SHELL, 'public'), dist, { recursive: true });
  const template = await readFile(join(SHELL, 'src', 'index.ejs'), 'utf8');
  const parameters: Record<string, string> = {
    siteName: SITE_NAME,
    siteDescription: SITE_DESCRIPTION,
    themeColor: THEME_COLOR,
  };
  const html = template
    .replace(/<%- (\w+) %>/g, (_, key: string) => parameters[key] ?? '')
    .replace('</head>', '<script defer src="/main.0123abcd.js"></script></head>');
  await writeFile(join(dist, 'index.html'), html);
  return root;
}

/** Stand-ins for the four services in this process, each with the routes `routes` adds to it. */
export async function stubServices(
  routes: (service: (typeof SERVICES)[number], app: FastifyInstance) => void = () => {},
): Promise<{ targets: ServiceTargets; close: () => Promise<void> }> {
  const apps: FastifyInstance[] = [];
  const targets = {} as Record<string, { kind: 'local'; app: FastifyInstance }>;
  for (const service of SERVICES) {
    const app = Fastify();
    routes(service, app);
    await app.ready();
    apps.push(app);
    targets[service] = { kind: 'local', app };
  }
  return {
    targets: targets as unknown as ServiceTargets,
    close: async () => {
      for (const app of apps) await app.close();
    },
  };
}
