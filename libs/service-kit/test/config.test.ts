import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { BaseConfigSchema, ConfigError, databaseUrlFor, loadConfig } from '../src/index.ts';

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
});
