import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Compiler, type RspackPluginInstance, rspack } from '@rspack/core';

/**
 * What the apps import from react-router, and all that the shared react-router provides. Module
 * Federation shares whole modules, so sharing the package itself ships all of it (53 KiB brotli);
 * sharing a module that re-exports only these lets Rspack drop the rest (12 KiB). An app importing
 * anything else fails its build and test/shared-exports.test.ts: add the name here.
 */
export const REACT_ROUTER_EXPORTS = [
  'BrowserRouter',
  'Link',
  'Navigate',
  'Route',
  'Routes',
  'useLocation',
  'useNavigate',
  'useParams',
  'useSearchParams',
] as const;

const REACT_ROUTER_IMPORT =
  /\b(?:import|export)\s+(type\s+)?(\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*\{[^}]*\})?|\{[^}]*\})\s*from\s*['"]react-router['"]/g;

/** The react-router exports a module imports or re-exports: names, `default`, or `*` for a namespace. */
export function reactRouterImportsOf(source: string): string[] {
  const names: string[] = [];
  for (const [, typeOnly, clause = ''] of source.matchAll(REACT_ROUTER_IMPORT)) {
    if (typeOnly) continue;
    if (clause.startsWith('*')) names.push('*');
    else if (!clause.startsWith('{')) names.push('default');
    for (const specifier of /\{([^}]*)\}/.exec(clause)?.[1]?.split(',') ?? []) {
      const name = specifier.trim().split(/\s+as\s+/)[0] ?? '';
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  return names;
}

/**
 * Modules only server builds bundle (`*.server.ts(x)`, createServerConfigs): react-router is the whole package there.
 */
export const SERVER_ONLY_MODULE = /\.server\.tsx?$/;

/**
 * Imports from react-router in the TypeScript files under `dir` that REACT_ROUTER_EXPORTS lacks, as "file: name";
 * server-only modules aside.
 */
export function unlistedReactRouterImports(dir: string): string[] {
  const listed: readonly string[] = REACT_ROUTER_EXPORTS;
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || SERVER_ONLY_MODULE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const name of reactRouterImportsOf(readFileSync(file, 'utf8'))) {
      if (!listed.includes(name)) found.push(`${file}: ${name}`);
    }
  }
  return found;
}

/**
 * The real package for the re-exporting module: a name the share plugins do not match, or the
 * module would consume itself from the share scope.
 */
const REACT_ROUTER_PACKAGE = '@lakecams/mf-config/react-router-package';

/** The generated module each build shares as `react-router`, inside the app so the package resolves from there. */
export function reactRouterExportsModule(appDir: string): string {
  return path.join(appDir, 'node_modules', '.lakecams-shared', 'react-router.js');
}

/** Generates the module of `reactRouterExportsModule` and resolves the real package for it. */
export class SharedExportsPlugin implements RspackPluginInstance {
  readonly #appDir: string;

  constructor(appDir: string) {
    this.#appDir = appDir;
  }

  apply(compiler: Compiler) {
    // An unlisted import would be undefined at run time: stop the build instead.
    const unlisted = unlistedReactRouterImports(path.join(this.#appDir, 'src'));
    if (unlisted.length > 0) {
      throw new Error(`Add to REACT_ROUTER_EXPORTS in libs/mf-config (shared react-router): ${unlisted.join(', ')}`);
    }
    const source = `export { ${REACT_ROUTER_EXPORTS.join(', ')} } from '${REACT_ROUTER_PACKAGE}';\n`;
    new rspack.experiments.VirtualModulesPlugin({ [reactRouterExportsModule(this.#appDir)]: source }).apply(compiler);
    compiler.options.resolve.alias = {
      ...compiler.options.resolve.alias,
      [`${REACT_ROUTER_PACKAGE}$`]: 'react-router',
    };
  }
}
