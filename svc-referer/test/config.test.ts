import { ConfigError } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import { loadRefererConfig, refererOptionsFromConfig } from '../src/config.ts';

describe('svc-referer configuration, one loader for its process and the embedded portal', () => {
  it('reads only the settings every service reads, with their defaults', () => {
    const config = loadRefererConfig({ UNRELATED: 'ignored' });
    expect(config).toEqual({
      HOST: '127.0.0.1',
      PORT: 0,
      LOG_LEVEL: 'info',
      METRICS_HOST: '127.0.0.1',
      NATS_STREAM_REPLICAS: 1,
      DATA_DIR: './data',
    });
    expect(refererOptionsFromConfig(config)).toEqual({});
  });

  it('takes the shared settings from the environment', () => {
    expect(
      loadRefererConfig({ HOST: '0.0.0.0', PORT: '8182', LOG_LEVEL: 'warn', NATS_URL: 'nats://nats:4222' }),
    ).toMatchObject({ HOST: '0.0.0.0', PORT: 8182, LOG_LEVEL: 'warn', NATS_URL: 'nats://nats:4222' });
  });

  it('refuses a wrong value with a message naming the variable', () => {
    expect(() => loadRefererConfig({ PORT: 'http' })).toThrow(ConfigError);
    expect(() => loadRefererConfig({ PORT: 'http' })).toThrow(/Invalid configuration: PORT/);
    expect(() => loadRefererConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
    expect(() => loadRefererConfig({ BUS_NAMESPACE: 'two words' })).toThrow(/BUS_NAMESPACE/);
  });
});
