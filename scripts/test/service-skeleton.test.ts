import { CONTROLLER_OWNERS } from '@lakecams/contracts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decoratorsIn } from '../typecheck.ts';

/**
 * Every service has one shape, so a newcomer who knows one knows them all (docs/architecture.md, "The shape"):
 * its options, schemas and composition root in files of those names, its tables behind `src/repositories/`,
 * everything it says and hears on the bus in `src/messaging.ts`, its routes under the controllers it owns, and no
 * Fastify decorators of its own: the composition hands routes what they use as typed parameters.
 */

const ROOT = join(import.meta.dirname, '../..');
const SERVICES = ['svc-identity', 'svc-webcam', 'svc-referer', 'svc-imaging'];

/** Services not in the shape yet, and why. A service leaves this list when it has the shape (a test says so). */
const KNOWN_EXCEPTIONS: Readonly<Record<string, string>> = {
};

/** Decorators a service in the shape still declares on Fastify, each with its reason. */
const ALLOWED_DECORATORS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'svc-identity': {
    users: "e2e/admin.e2e.test.ts adds a user through the embedded portal's identity app",
  },
};

const REQUIRED_FILES = [
  'tsconfig.json',
  'test/tsconfig.json',
  'src/app.ts',
  'src/server.ts',
  'src/testing.ts',
  'src/config.ts',
  'src/options.ts',
  'src/schemas.ts',
  'src/database.ts',
  'src/migrations/index.ts',
  'src/composition.ts',
  'src/messaging.ts',
];

/** The service's source files, relative to the service's folder, with their text. */
function sources(service: string): Map<string, string> {
  const dir = join(ROOT, service, 'src');
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [relative(join(ROOT, service), path), readFileSync(path, 'utf8')] as const;
      }),
  );
}

/** What keeps `service` from the shape; empty when it has it. */
function problemsOf(service: string): string[] {
  const problems: string[] = [];
  const has = (path: string) => existsSync(join(ROOT, service, path));
  for (const file of REQUIRED_FILES) if (!has(file)) problems.push(`no ${file}`);
  if (has('src/plugins')) problems.push('src/plugins/ (decorators) instead of the composition root');
  const files = sources(service);

  const repositories = [...files.keys()].filter((file) => file.startsWith('src/repositories/'));
  if (repositories.length === 0) problems.push('no src/repositories/');
  for (const file of repositories) {
    if (!file.endsWith('-repository.ts')) problems.push(`${file}: a repository's file is named <what>-repository.ts`);
    else if (!/^export function create\w+\(/m.test(files.get(file) ?? ''))
      problems.push(`${file}: exports no create…() factory`);
  }

  const allowed = ALLOWED_DECORATORS[service] ?? {};
  for (const [file, text] of files) {
    for (const { on, name } of decoratorsIn(text)) {
      if (file !== 'src/composition.ts' || !(name in allowed))
        problems.push(`${file}: declares the decorator ${on}.${name}`);
    }
    const eventWriter = file.startsWith('src/repositories/') || ['src/messaging.ts', 'src/testing.ts'].includes(file);
    if (text.includes('publishEvent(') && !eventWriter)
      problems.push(
        `${file}: writes events; only repositories and src/messaging.ts do (and tests through src/testing.ts)`,
      );
    if (/\bapp\.bus\b/.test(text) && file !== 'src/messaging.ts')
      problems.push(`${file}: uses the bus; only src/messaging.ts does`);
  }

  if (!/from '\.\/composition\.ts'/.test(files.get('src/app.ts') ?? ''))
    problems.push('src/app.ts does not build the service through src/composition.ts');
  if (
    (files.get('src/messaging.ts') ?? '').includes('followKnownUsers(') &&
    !has('src/repositories/known-user-repository.ts')
  )
    problems.push('follows the known users without src/repositories/known-user-repository.ts');

  const controllers = has('src/routes/api') ? readdirSync(join(ROOT, service, 'src/routes/api')) : [];
  if (controllers.length === 0) problems.push('no routes under src/routes/api/<Controller>/');
  for (const controller of controllers) {
    const owner = CONTROLLER_OWNERS[controller];
    if (`svc-${owner}` !== service) problems.push(`src/routes/api/${controller}: a controller ${service} does not own`);
  }
  return problems;
}

const inShape = SERVICES.filter((service) => !(service in KNOWN_EXCEPTIONS));
const exceptions = SERVICES.filter((service) => service in KNOWN_EXCEPTIONS);

describe('one skeleton for every service', () => {
  it.each(inShape)('%s has it', (service) => {
    expect(problemsOf(service)).toEqual([]);
  });

  it.each(exceptions)('%s is a known exception until it has it (then remove it from KNOWN_EXCEPTIONS)', (service) => {
    expect(problemsOf(service), KNOWN_EXCEPTIONS[service]).not.toEqual([]);
  });

  it('lists only services that exist, and keeps every exception with its reason', () => {
    for (const service of [...Object.keys(KNOWN_EXCEPTIONS), ...Object.keys(ALLOWED_DECORATORS)])
      expect(SERVICES).toContain(service);
    for (const reason of Object.values(KNOWN_EXCEPTIONS)) expect(reason.length).toBeGreaterThan(20);
  });
});
