import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICES } from '@lakecams/contracts';
import { GatewayConfigSchema } from '@lakecams/gateway';
import { BaseConfigSchema, NATIVE_MEMORY_ENV } from '@lakecams/service-kit';
import { parse, parseAllDocuments } from 'yaml';

/** Reading deploy/ and the code it deploys, for tests that hold one against the other. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEPLOY = `${ROOT}deploy/`;

export function readText(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8');
}

export function exists(path: string): boolean {
  return existsSync(`${ROOT}${path}`);
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readText(path)) as T;
}

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is checked by schema, then read loosely.
export type Loose = any;

/** KEY=VALUE lines of an env file (comments and blank lines skipped; double-quoted values may span lines). */
export function parseEnvFile(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const pattern = /^([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(.*))$/gm;
  for (const match of text.matchAll(pattern)) values.set(match[1] as string, match[2] ?? match[3] ?? '');
  return values;
}

/** Variables compose.yaml interpolates, with how (`${VAR:?}` required, `${VAR:-x}` defaulted, `${VAR}` plain). */
export function composeVariables(text: string): Map<string, 'required' | 'default' | 'plain'> {
  const found = new Map<string, 'required' | 'default' | 'plain'>();
  for (const match of text.replaceAll('$$', '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])?[^}]*\}/g)) {
    const kind = match[2]?.endsWith('?') ? 'required' : match[2] ? 'default' : 'plain';
    const name = match[1] as string;
    if (found.get(name) !== 'required') found.set(name, kind);
  }
  return found;
}

/** Compose's interpolation of the forms compose.yaml uses; an unset required variable throws as compose would. */
export function interpolate(text: string, env: Map<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name: string, colon: string, op: string, arg: string) => {
      if (whole === '$$') return '$';
      const value = env.get(name);
      const unset = value === undefined || (colon === ':' && value === '');
      if (op === '-' && unset) return arg;
      if (op === '?' && unset) throw new Error(`required variable ${name} is missing: ${arg}`);
      return value ?? '';
    },
  );
}

/** deploy/compose.yaml with `.env.example`'s values and every required secret set to a placeholder. */
export function loadCompose(overrides: Record<string, string> = {}): { text: string; doc: Loose } {
  const text = readText('deploy/compose.yaml');
  const env = parseEnvFile(readText('deploy/.env.example'));
  // Long enough for the loaders' minimum secret lengths.
  const placeholder = 'a-secret-placeholder-value';
  for (const [name, kind] of composeVariables(text))
    if (kind === 'required' && !env.get(name)) env.set(name, placeholder);
  for (const [name, value] of Object.entries(overrides)) env.set(name, value);
  return { text, doc: parse(interpolate(text, env), { merge: true }) };
}

/** All documents of a Kubernetes YAML file. */
export function loadManifests(path: string): Loose[] {
  return parseAllDocuments(readText(path)).map((document) => {
    if (document.errors.length) throw new Error(`${path}: ${document.errors[0]?.message}`);
    return document.toJS();
  });
}

export interface DockerStage {
  name: string;
  from: string;
  /** Instructions with line continuations joined. */
  instructions: { keyword: string; args: string }[];
}

/** The stages of a Dockerfile, with ARG defaults substituted into FROM. */
export function parseDockerfile(path: string): DockerStage[] {
  const lines = readText(path)
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = instruction.args.split('=');
      args.set(name as string, value);
    } else if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      const from = (match?.[1] ?? '').replace(/\$\{(\w+)\}/g, (_, name: string) => args.get(name) ?? '');
      stages.push({ name: match?.[2] ?? `stage-${stages.length}`, from, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** A stage's instructions including those of the stages it is built FROM. */
export function stageChain(stages: DockerStage[], name: string): DockerStage[] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) return [];
  return [...stageChain(stages, stage.from), stage];
}

/** ENV of a stage and its parents. */
export function stageEnv(stages: DockerStage[], name: string): Map<string, string> {
  const env = new Map<string, string>();
  for (const stage of stageChain(stages, name)) {
    for (const { keyword, args } of stage.instructions) {
      if (keyword !== 'ENV') continue;
      for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) {
        env.set(match[1] as string, (match[2] as string).replace(/^"|"$/g, ''));
      }
    }
  }
  return env;
}

/** Source paths of COPY instructions without --from (they name files of the build context, the repository). */
export function contextCopies(stage: DockerStage): string[] {
  return stage.instructions
    .filter((i) => i.keyword === 'COPY' && !/--from=/.test(i.args))
    .flatMap((i) => {
      const parts = i.args.split(/\s+/).filter((part) => !part.startsWith('--'));
      return parts.slice(0, -1);
    });
}

export const SERVICE_DOCKERFILE = 'deploy/docker/service.Dockerfile';
export const FRONTEND_DOCKERFILE = 'deploy/docker/frontend.Dockerfile';
/** Deployable images: the Dockerfile target is also the workspace folder and the image's last name part. */
export const SERVICE_TARGETS = ['svc-identity', 'svc-webcam', 'svc-referer', 'svc-imaging', 'gateway'] as const;
export const FRONTEND_TARGETS = ['shell', 'mf-map', 'mf-account', 'mf-admin'] as const;
/** The player partners embed (embed/): a front-end image too, served under /embed/, outside Module Federation. */
export const PLAYER_TARGET = 'embed';
/** Every image that is nginx serving a build. */
export const FRONTEND_IMAGES = [...FRONTEND_TARGETS, PLAYER_TARGET] as const;

/** Workspace folder of each `@lakecams/*` package. */
export function workspaceFolders(): Map<string, string> {
  const folders = new Map<string, string>();
  const root = readJson<{ workspaces: string[] }>('package.json');
  for (const pattern of root.workspaces) {
    const candidates = pattern.endsWith('/*')
      ? readdirSync(`${ROOT}${pattern.slice(0, -2)}`).map((name) => `${pattern.slice(0, -1)}${name}`)
      : [pattern];
    for (const folder of candidates) {
      if (!exists(`${folder}/package.json`)) continue;
      folders.set(readJson<{ name: string }>(`${folder}/package.json`).name, folder);
    }
  }
  return folders;
}

/** The workspace folders a workspace needs at run time (or to build, with devDependencies), itself excluded. */
export function workspaceClosure(folder: string, withDev: boolean): Set<string> {
  const folders = workspaceFolders();
  const seen = new Set<string>();
  const visit = (current: string, dev: boolean) => {
    const manifest = readJson<Record<string, Record<string, string>>>(`${current}/package.json`);
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...(dev ? Object.keys(manifest.devDependencies ?? {}) : []),
    ];
    for (const name of names) {
      const dependency = folders.get(name);
      if (!dependency || seen.has(dependency)) continue;
      seen.add(dependency);
      visit(dependency, false);
    }
  };
  visit(folder, withDev);
  return seen;
}

/** The environment variable names a deployable's code reads, found in its sources. */
export function environmentReadBy(target: string): Set<string> {
  // The C library reads the malloc settings of every process (libs/service-kit/src/native-memory.ts).
  const malloc = Object.keys(NATIVE_MEMORY_ENV);
  if (target === 'gateway') {
    const names = new Set([...Object.keys(GatewayConfigSchema.properties), ...malloc]);
    // remoteTargetsFrom reads SERVICE_URL_<SERVICE>; the gateway tests check the template by calling it.
    for (const service of SERVICES) names.add(`SERVICE_URL_${service.toUpperCase()}`);
    return names;
  }
  const server = readText(`${target}/src/server.ts`);
  if (!server.includes('runService(')) throw new Error(`${target}/src/server.ts no longer calls runService`);
  const names = new Set([...Object.keys(BaseConfigSchema.properties), ...malloc]);
  // databaseUrlFor reads DATABASE_URL_<SERVICE> (checked by calling it).
  names.add(`DATABASE_URL_${target.replace(/^svc-/, '').toUpperCase()}`);
  // A service may keep its schema beside server.ts (svc-imaging's config.ts, shared with the embedded portal).
  const config = exists(`${target}/src/config.ts`) ? readText(`${target}/src/config.ts`) : '';
  for (const source of [server, config]) {
    for (const match of source.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s*Type\./gm)) names.add(match[1] as string);
    for (const match of source.matchAll(/process\.env(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)) names.add(match[1] as string);
  }
  return names;
}

/** Variables the front-end images read: their start-up script and nginx's HEALTHCHECK. */
export function environmentReadByFrontend(): Set<string> {
  const script = readText('deploy/docker/publish-build.sh');
  const names = new Set<string>();
  for (const match of script.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)) names.add(match[1] as string);
  for (const match of readText(FRONTEND_DOCKERFILE).matchAll(/HEALTHCHECK[^\n]*\n[^\n]*\$\{([A-Z_]+)\}/g)) {
    names.add(match[1] as string);
  }
  return names;
}

/** Paths the service kit's health plugin answers. */
export function healthRoutes(): Set<string> {
  const source = readText('libs/service-kit/src/plugins/health.ts');
  return new Set([...source.matchAll(/app\.get\('([^']+)'/g)].map((match) => match[1] as string));
}

/** Paths the service kit's metrics server answers on the metrics port (`serveMetrics`). */
export function metricsRoutes(): Set<string> {
  const source = readText('libs/service-kit/src/plugins/metrics.ts');
  const path = /METRICS_PATH = '([^']+)'/.exec(source)?.[1];
  if (!source.includes('server.get(METRICS_PATH')) throw new Error('serveMetrics no longer answers METRICS_PATH');
  return new Set(path ? [path] : []);
}

/** Routes the gateway itself declares (besides /api proxying and the health plugin). */
export function gatewayRoutes(): Set<string> {
  const source = readText('gateway/src/plugins/frontends.ts');
  return new Set([...source.matchAll(/app\.get\('([^']+)'/g)].map((match) => match[1] as string));
}
