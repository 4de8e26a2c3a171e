import { ConfigError } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import { loadWebcamConfig, webcamOptionsFromConfig } from '../src/config.ts';

describe('svc-webcam configuration, one loader for its process and the embedded portal', () => {
  it('seeds no demo cameras unless told to', () => {
    const config = loadWebcamConfig({});
    expect(config).toMatchObject({ DEMO_CAMERAS: false });
    expect(webcamOptionsFromConfig(config)).toEqual({ demoCameras: false });
  });

  it('takes every value from the environment and turns it into service options', () => {
    // DEMO_SOURCE_URL, which older deployments still set, is no longer read: svc-imaging renders demo cameras.
    const config = loadWebcamConfig({
      DEMO_CAMERAS: 'true',
      DEMO_SOURCE_URL: 'http://127.0.0.1:8080/api/Image/DemoSource',
      UNRELATED: 'ignored',
    });
    expect(config).not.toHaveProperty('UNRELATED');
    expect(config).not.toHaveProperty('DEMO_SOURCE_URL');
    expect(webcamOptionsFromConfig(config)).toEqual({ demoCameras: true });
  });

  it('refuses a wrong value with a message naming the variable', () => {
    expect(() => loadWebcamConfig({ DEMO_CAMERAS: 'ja' })).toThrow(ConfigError);
    expect(() => loadWebcamConfig({ DEMO_CAMERAS: 'ja' })).toThrow(/Invalid configuration: DEMO_CAMERAS/);
    expect(() => loadWebcamConfig({ NATS_STREAM_REPLICAS: '0' })).toThrow(/NATS_STREAM_REPLICAS/);
  });
});
