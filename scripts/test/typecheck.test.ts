import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it("fails the type check when a program holds another service's decorator, and passes without it", () => {
    const cache = join(ROOT, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'typecheck-test-'));
    try {
      const augment = (members: string) => `import 'fastify';\ndeclare module 'fastify' {\n${members}\n}\n`;
      // What the service kit declares for everybody, and a decorator of svc-imaging.
      writeFileSync(
        join(dir, 'kit.ts'),
        augment('  interface FastifyInstance { bus: object }\n  interface FastifyRequest { principal: object }'),
      );
      writeFileSync(join(dir, 'imaging.ts'), augment('  interface FastifyInstance { zzCaptures: object }'));
      writeFileSync(
        join(dir, 'svc-webcam.probe.ts'),
        probeFor('svc-webcam', [
          { pkg: 'svc-imaging', file: 'svc-imaging/src/imaging.ts', on: 'FastifyInstance', name: 'zzCaptures' },
        ]),
      );
      const check = (files: string[]) => {
        const config = join(dir, 'tsconfig.json');
        const base = join(ROOT, 'tsconfig.base.json');
        writeFileSync(config, JSON.stringify({ extends: base, compilerOptions: { incremental: false }, files }));
        const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
        return spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
      };
      const apart = check(['svc-webcam.probe.ts', 'kit.ts']);
      expect(apart.stdout).toBe('');
      expect(apart.status).toBe(0);
      const together = check(['svc-webcam.probe.ts', 'kit.ts', 'imaging.ts']);
      expect(together.status).not.toBe(0);
      expect(explained(together.stdout)).toContain(
        'svc-webcam sees a decorator of another service: svc-imaging: FastifyInstance.zzCaptures',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
