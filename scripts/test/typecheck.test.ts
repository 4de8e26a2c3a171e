import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decoratorsIn, explained, ISOLATED_PACKAGES, probeFor, serviceDecorators } from '../typecheck.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the type check of each service on its own', () => {
  it("reads what a file adds to Fastify's interfaces, nested types and other modules left out", () => {
    const source = [
      "declare module 'fastify' {",
      '  interface FastifyInstance {',
      '    /** A comment. */',
      '    captures: CaptureRepository;',
      '    deliverMail(mail: Mail): Promise<void>;',
      '    outboxPending?: () => Promise<number>;',
      '    checkReadiness(): Promise<{',
      '      ready: boolean;',
      '    }>;',
      '  }',
      '  interface FastifyRequest {',
      '    principal: Principal | null;',
      '  }',
      '  interface FastifyContextConfig {',
      '    multipartBody?: object;',
      '  }',
      '}',
      "declare module 'other' {",
      '  interface FastifyInstance {',
      '    notFastify: string;',
      '  }',
      '}',
    ].join('\n');
    expect(decoratorsIn(source)).toEqual([
      { on: 'FastifyInstance', name: 'captures' },
      { on: 'FastifyInstance', name: 'deliverMail' },
      { on: 'FastifyInstance', name: 'outboxPending' },
      { on: 'FastifyInstance', name: 'checkReadiness' },
      { on: 'FastifyRequest', name: 'principal' },
    ]);
  });

  it("expects every other service's decorator to be missing, and none of the package's own", () => {
    const probe = probeFor('svc-webcam', [
      { pkg: 'svc-imaging', file: 'svc-imaging/src/a.ts', on: 'FastifyInstance', name: 'captures' },
      { pkg: 'svc-identity', file: 'svc-identity/src/b.ts', on: 'FastifyRequest', name: 'captcha' },
      { pkg: 'svc-webcam', file: 'svc-webcam/src/c.ts', on: 'FastifyInstance', name: 'webcams' },
    ]);
    expect(probe).toContain(
      '// svc-imaging: FastifyInstance.captures (svc-imaging/src/a.ts)\n// @ts-expect-error\napp.captures;',
    );
    expect(probe).toContain('// @ts-expect-error\nrequest.captcha;');
    expect(probe).not.toContain('webcams');
    // The kit's decorators are visible, so the probe is part of the package's program.
    expect(probe).toMatch(/^app\.bus;$/m);
  });

  it('names the decorator a package sees where it should not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'typecheck-'));
    try {
      const probe = join(dir, 'svc-webcam.probe.ts');
      writeFileSync(
        probe,
        probeFor('svc-webcam', [
          { pkg: 'svc-imaging', file: 'svc-imaging/src/a.ts', on: 'FastifyInstance', name: 'captures' },
        ]),
      );
      const line = readFileSync(probe, 'utf8').split('\n').indexOf('// @ts-expect-error') + 1;
      const error = `${probe}(${line},1): error TS2578: Unused '@ts-expect-error' directive.`;
      expect(explained(`${error}\n`)).toBe(
        `${error}\n  svc-webcam sees a decorator of another service: svc-imaging: FastifyInstance.captures (svc-imaging/src/a.ts)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the decorators the services declare today', () => {
    const decorators = serviceDecorators();
    for (const decorator of decorators) {
      expect(ISOLATED_PACKAGES).toContain(decorator.pkg);
      expect(readFileSync(join(ROOT, decorator.file), 'utf8')).toContain(decorator.name);
    }
  });

  it('gives each isolated package a tsconfig.json of its own that reaches no other package by path', () => {
    for (const pkg of ISOLATED_PACKAGES) {
      const config = JSON.parse(readFileSync(join(ROOT, pkg, 'tsconfig.json'), 'utf8')) as {
        extends: string;
        include: string[];
      };
      expect(config.extends).toBe(`${'../'.repeat(pkg.split('/').length)}tsconfig.base.json`);
      expect(config.include.filter((pattern) => pattern.startsWith('..'))).toEqual([]);
      expect(existsSync(join(ROOT, pkg, 'src'))).toBe(true);
    }
  });
});
