import { Type } from 'typebox';
import { describe, expect, it, vi } from 'vitest';
import { BaseConfigSchema, ConfigError, databaseUrlFor, exitOnConfigError, loadConfig } from '../src/index.ts';

describe('configuration from the environment', () => {
  it('applies defaults and converts strings', () => {
    const config = loadConfig(BaseConfigSchema, { PORT: '9000', UNRELATED: 'x' });
    expect(config).toMatchObject({ HOST: '127.0.0.1', PORT: 9000, LOG_LEVEL: 'info' });
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('fails with a message naming the bad setting', () => {
    expect(() => loadConfig(BaseConfigSchema, { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig(BaseConfigSchema, { LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig(Type.Object({ FLAG: Type.Boolean() }), {})).toThrow(/FLAG/);
  });

  it('gives each service its own database', () => {
    const env = { DATABASE_URL: 'postgres://u:p@db:5432/postgres?sslmode=disable' };
    expect(databaseUrlFor('webcam', env)).toBe('postgres://u:p@db:5432/lakecams_webcam?sslmode=disable');
    expect(databaseUrlFor('webcam', { ...env, DATABASE_URL_WEBCAM: 'postgres://other/cams' })).toBe(
      'postgres://other/cams',
    );
    expect(databaseUrlFor('webcam', {})).toBeUndefined();
  });

  it('ends a command with the message of a configuration mistake, and lets other errors through', () => {
    expect(exitOnConfigError(() => loadConfig(BaseConfigSchema, { PORT: '9000' })).PORT).toBe(9000);

    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      exitOnConfigError(() => loadConfig(BaseConfigSchema, { PORT: 'abc' }));
      expect(printed).toHaveBeenCalledWith('Invalid configuration: PORT must be integer');
      expect(exit).toHaveBeenCalledWith(1);
      expect(() =>
        exitOnConfigError(() => {
          throw new TypeError('a bug');
        }),
      ).toThrow('a bug');
      expect(exit).toHaveBeenCalledTimes(1);
    } finally {
      exit.mockRestore();
      printed.mockRestore();
    }
  });
});
