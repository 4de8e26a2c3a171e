import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ReactRouter from 'react-router';
import { describe, expect, it } from 'vitest';
import { REACT_ROUTER_EXPORTS, reactRouterImportsOf, unlistedReactRouterImports } from '../src/shared-exports.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every app's and library's source: all of it can end up in a federated build. */
function sourceFolders(): string[] {
  const apps = ['shell', ...readdirSync(ROOT).filter((name) => name.startsWith('mf-'))];
  const libs = readdirSync(path.join(ROOT, 'libs')).map((name) => path.join('libs', name));
  return [...apps, ...libs].map((folder) => path.join(ROOT, folder, 'src')).filter((dir) => existsSync(dir));
}

describe('the shared react-router', () => {
  it('provides every react-router export the apps and libraries import', () => {
    const folders = sourceFolders();
    expect(folders.map((dir) => path.relative(ROOT, dir))).toEqual(
      expect.arrayContaining(['shell/src', 'mf-map/src', 'mf-account/src', 'mf-admin/src']),
    );
    expect(folders.flatMap(unlistedReactRouterImports)).toEqual([]);
  });

  it('leaves out modules only server builds bundle, which get the whole package', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lakecams-shared-exports-'));
    try {
      const source = `import { StaticRouter } from 'react-router';\n`;
      writeFileSync(path.join(dir, 'page-render.server.tsx'), source);
      writeFileSync(path.join(dir, 'page.tsx'), source);
      expect(unlistedReactRouterImports(dir)).toEqual([`${path.join(dir, 'page.tsx')}: StaticRouter`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists only exports react-router has', () => {
    for (const name of REACT_ROUTER_EXPORTS) expect(ReactRouter).toHaveProperty(name);
  });
});

describe('reactRouterImportsOf', () => {
  it('names value imports and re-exports, across lines and renamed', () => {
    const source = `
      import { Link, useMatch as match } from 'react-router';
      import {
        Outlet,
        type To,
      } from "react-router";
      export { Form } from 'react-router';`;
    expect(reactRouterImportsOf(source)).toEqual(['Link', 'useMatch', 'Outlet', 'Form']);
  });

  it('ignores type-only imports and other packages', () => {
    const source = `
      import type { NavigateFunction } from 'react-router';
      import { Link } from 'react-router-dom';
      import { useState } from 'react';`;
    expect(reactRouterImportsOf(source)).toEqual([]);
  });

  it('reports namespace and default imports, which would need the whole package', () => {
    expect(reactRouterImportsOf(`import * as Router from 'react-router';`)).toEqual(['*']);
    expect(reactRouterImportsOf(`export * from 'react-router';`)).toEqual(['*']);
    expect(reactRouterImportsOf(`import Router, { Link } from 'react-router';`)).toEqual(['default', 'Link']);
  });
});
