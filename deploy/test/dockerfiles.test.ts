import { defaultRemoteManifests } from '@lakecams/gateway';
import { NATIVE_MEMORY_ENV } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import {
  contextCopies,
  environmentReadBy,
  environmentReadByFrontend,
  exists,
  FRONTEND_DOCKERFILE,
  FRONTEND_IMAGES,
  PLAYER_TARGET,
  FRONTEND_TARGETS,
  healthRoutes,
  parseDockerfile,
  readJson,
  readText,
  SERVICE_DOCKERFILE,
  SERVICE_TARGETS,
  stageChain,
  stageEnv,
  workspaceClosure,
} from './deploy-files.ts';

const serviceStages = parseDockerfile(SERVICE_DOCKERFILE);
const frontendStages = parseDockerfile(FRONTEND_DOCKERFILE);
const rootManifest = readJson<{ workspaces: string[]; engines: { node: string } }>('package.json');

function instructions(stages: ReturnType<typeof parseDockerfile>, target: string, keyword: string): string[] {
  return stageChain(stages, target).flatMap((stage) =>
    stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args),
  );
}

/** Files the stages of `target` (and the stages it copies --from) take from the repository. */
function copiedPaths(stages: ReturnType<typeof parseDockerfile>, target: string): string[] {
  const chain = stageChain(stages, target);
  const fromStages = chain.flatMap((stage) =>
    stage.instructions.flatMap((i) => (i.keyword === 'COPY' ? [/--from=(\S+)/.exec(i.args)?.[1]] : [])),
  );
  const names = new Set([...chain.map((s) => s.name), ...fromStages.flatMap((s) => (s ? [s] : []))]);
  return [...names].flatMap((name) => stageChain(stages, name)).flatMap(contextCopies);
}

describe('Dockerfiles', () => {
  it('copy only paths that exist in the repository', () => {
    for (const [file, stages] of [
      [SERVICE_DOCKERFILE, serviceStages],
      [FRONTEND_DOCKERFILE, frontendStages],
    ] as const) {
      const missing = stages.flatMap(contextCopies).filter((path) => !exists(path.replace(/\/$/, '')));
      expect(missing, file).toEqual([]);
      // BuildKit reads <Dockerfile>.dockerignore; without it node_modules and dist would be sent along.
      expect(readText(`${file}.dockerignore`)).toMatch(/^\*\*\/node_modules$/m);
    }
  });

  it('start from Node 24, the version the root package.json pins', () => {
    const major = /^>=(\d+)/.exec(rootManifest.engines.node)?.[1];
    for (const file of [SERVICE_DOCKERFILE, FRONTEND_DOCKERFILE]) {
      expect(readText(file)).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${major}-\\S+-slim$`, 'm'));
    }
  });

  it('build each service and the gateway from its workspace with production dependencies only', () => {
    for (const target of SERVICE_TARGETS) {
      expect(rootManifest.workspaces).toContain(target);
      const deps = `deps-${target}`;
      const install = instructions(serviceStages, deps, 'RUN').join('\n');
      expect(install).toContain(`npm ci --omit=dev`);
      expect(install).toMatch(new RegExp(`-w ${target}$`));
      // npm ci needs the manifest of every workspace it links; the image needs their sources.
      const copied = copiedPaths(serviceStages, target);
      for (const folder of [target, ...workspaceClosure(target, false)]) {
        expect(copied, `${target} needs ${folder}/package.json`).toContain(`${folder}/package.json`);
        expect(copied, `${target} needs ${folder}/src`).toContain(`${folder}/src`);
      }
      // Files the build copies as they are (the shell's icons and app manifest).
      if (exists(`${target}/public`)) expect(copied, `${target} needs its public/`).toContain(`${target}/public`);
      expect(instructions(serviceStages, target, 'COPY').some((args) => args.includes(`--from=${deps} `))).toBe(true);
    }
  });

  it('run each service as its npm start does: node on its TypeScript server, as a non-root user', () => {
    for (const target of SERVICE_TARGETS) {
      const manifest = readJson<{ scripts: { start: string } }>(`${target}/package.json`);
      const script = /^node (\S+)$/.exec(manifest.scripts.start)?.[1];
      expect(instructions(serviceStages, target, 'CMD').at(-1)).toBe(`["node", "${target}/${script}"]`);
      expect(exists(`${target}/${script}`)).toBe(true);
      expect(instructions(serviceStages, target, 'USER').at(-1)).toBe('node');
    }
  });

  it('check health on the path the service kit answers, at the port the image sets', () => {
    const healthcheck = instructions(serviceStages, 'runtime', 'HEALTHCHECK').join(' ');
    const path = /\$\{process\.env\.PORT\}(\/\w+)/.exec(healthcheck)?.[1];
    expect(healthRoutes()).toContain(path);
    for (const target of SERVICE_TARGETS) {
      expect(stageEnv(serviceStages, target).get('PORT')).toBe('8080');
      expect(instructions(serviceStages, target, 'EXPOSE').join(' ').split(/\s+/)).toContain('8080');
    }
  });

  it('serve metrics on a port of their own, where Prometheus reaches the container', () => {
    for (const target of SERVICE_TARGETS) {
      const env = stageEnv(serviceStages, target);
      expect(env.get('METRICS_PORT'), target).toBe('9464');
      expect(env.get('METRICS_PORT'), target).not.toBe(env.get('PORT'));
      expect(env.get('METRICS_HOST'), target).toBe('0.0.0.0');
      expect(instructions(serviceStages, target, 'EXPOSE').join(' ').split(/\s+/), target).toContain('9464');
    }
  });

  it('set only environment variables the code reads, and the C library the malloc settings', () => {
    const malloc = new Set(Object.keys(NATIVE_MEMORY_ENV));
    for (const target of SERVICE_TARGETS) {
      const read = environmentReadBy(target);
      const env = stageEnv(serviceStages, target);
      const unknown = [...env.keys()].filter((key) => key !== 'NODE_ENV' && !read.has(key));
      expect(unknown, target).toEqual([]);
      expect(Object.fromEntries([...env].filter(([key]) => malloc.has(key))), target).toEqual(NATIVE_MEMORY_ENV);
    }
    const frontendRead = environmentReadByFrontend();
    for (const target of FRONTEND_IMAGES) {
      expect(
        [...stageEnv(frontendStages, target).keys()].filter((key) => !frontendRead.has(key)),
        target,
      ).toEqual([]);
    }
  });

  it('give svc-imaging a writable image store and the gateway a front-end root', () => {
    const store = stageEnv(serviceStages, 'svc-imaging').get('IMAGE_STORE_DIR');
    expect(instructions(serviceStages, 'svc-imaging', 'RUN').join('\n')).toContain(`chown node:node ${store}`);
    const frontendRoot = stageEnv(serviceStages, 'gateway').get('FRONTEND_ROOT');
    expect(instructions(serviceStages, 'gateway', 'RUN').join('\n')).toContain(`mkdir -p ${frontendRoot}`);
  });

  it('build the player partners embed in its own image, served under /embed/', () => {
    expect(rootManifest.workspaces).toContain(PLAYER_TARGET);
    expect(instructions(frontendStages, `build-${PLAYER_TARGET}`, 'RUN').at(-1)).toBe(
      `npm run build -w ${PLAYER_TARGET}`,
    );
    const copied = copiedPaths(frontendStages, PLAYER_TARGET);
    for (const folder of [PLAYER_TARGET, ...workspaceClosure(PLAYER_TARGET, true)]) {
      expect(copied, `${PLAYER_TARGET} needs ${folder}/package.json`).toContain(`${folder}/package.json`);
      expect(copied, `${PLAYER_TARGET} needs ${folder}/src`).toContain(`${folder}/src`);
    }
    const served = instructions(frontendStages, PLAYER_TARGET, 'COPY').find((args) => args.startsWith('--from='));
    expect(served).toBe(`--from=build-${PLAYER_TARGET} /app/embed/dist/ /usr/share/nginx/html/embed/`);
    expect(stageEnv(frontendStages, PLAYER_TARGET).get('APP_ENTRY')).toBe('/embed/v1.js');
  });

  it('build each front end in its own image from the folder its Rspack build writes', () => {
    const mfConfig = readText('libs/mf-config/src/index.ts');
    // createAppConfig writes to <app>/dist (MF_OUT_DIR only when set) and a manifest for each remote.
    expect(mfConfig).toContain("path.join(options.appDir, 'dist')");
    expect(mfConfig).toMatch(/manifest: true/);
    expect(readText('shell/rspack.config.ts')).toContain('HtmlRspackPlugin');
    const remoteDirs = Object.fromEntries(
      Object.values(defaultRemoteManifests()).map((url) => [url.split('/').at(-2), url.replace(/[^/]+$/, '')]),
    );
    for (const target of FRONTEND_TARGETS) {
      expect(rootManifest.workspaces).toContain(target);
      expect(readText(`${target}/rspack.config.ts`)).toContain('createAppConfig(');
      const build = `build-${target}`;
      expect(instructions(frontendStages, build, 'RUN').at(-1)).toBe(`npm run build -w ${target}`);
      const copied = copiedPaths(frontendStages, target);
      for (const folder of [target, ...workspaceClosure(target, true)]) {
        expect(copied, `${target} needs ${folder}/package.json`).toContain(`${folder}/package.json`);
        expect(copied, `${target} needs ${folder}/src`).toContain(`${folder}/src`);
      }
      // Files the build copies as they are (the shell's icons and app manifest).
      if (exists(`${target}/public`)) expect(copied, `${target} needs its public/`).toContain(`${target}/public`);
      const served = instructions(frontendStages, target, 'COPY').find((args) => args.startsWith(`--from=${build} `));
      expect(served).toBe(
        `--from=${build} /app/${target}/dist/ /usr/share/nginx/html${target === 'shell' ? '/' : `/remotes/${target}/`}`,
      );
      // The image serves the build where the gateway's /remotes.json says the remote is.
      const env = stageEnv(frontendStages, target);
      const entry = env.get('APP_ENTRY') ?? '';
      expect(env.get('APP_DIR')).toBe(`/usr/share/nginx/html${entry.replace(/\/[^/]+$/, '')}`);
      if (target === 'shell') expect(entry).toBe('/index.html');
      else expect(entry).toBe(`${remoteDirs[target]}mf-manifest.json`);
      // When the app is built here, its entry file is really there.
      const builtEntry = `${target}/dist/${entry.split('/').at(-1)}`;
      if (exists(`${target}/dist`)) expect(exists(builtEntry), builtEntry).toBe(true);
    }
    expect(instructions(frontendStages, 'static', 'HEALTHCHECK').join(' ')).toMatch(/\$\{APP_ENTRY\}/);
    expect(instructions(frontendStages, 'static', 'USER').at(-1)).toBe('101');
  });

  it('configure nginx on the port the front-end images expose, for the shell and the remotes', () => {
    const nginx = readText('deploy/docker/nginx/frontend.conf');
    expect(nginx).toMatch(/listen 8080;/);
    expect(instructions(frontendStages, 'static', 'EXPOSE')).toContain('8080');
    expect(nginx).toContain('location ^~ /remotes/');
    expect(nginx).toContain('Access-Control-Allow-Origin "*"');
    expect(nginx).toContain('try_files /index.html =404;');
  });
});
