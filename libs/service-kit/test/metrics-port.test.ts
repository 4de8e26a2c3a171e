import Fastify from 'fastify';
import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { healthPlugin } from '../src/plugins/health.ts';
import {
  mergeExpositions,
  metricsAddressFrom,
  metricsPlugin,
  type MetricsServer,
  serveMetrics,
} from '../src/plugins/metrics.ts';

/** A registry of one app, as the metrics plugin labels it, with one counter at `value`. */
function appRegistry(service: string, value: number): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  new Counter({ name: 'lakecams_things_total', help: 'Things', registers: [registry] }).inc(value);
  new Counter({ name: `lakecams_${service}_only_total`, help: 'Only here', registers: [registry] }).inc();
  return registry;
}

describe('where metrics are served', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers /metrics on the public port as any unknown path', async () => {
    const app = Fastify();
    await app.register(healthPlugin);
    await app.register(metricsPlugin, { service: 'test' });
    const answer = await app.inject({ url: '/metrics' });
    expect([answer.statusCode, answer.json()]).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', message: 'Route GET /metrics not found' },
    ]);
    // Still counted, for the port Prometheus reads.
    expect(await app.metrics.metrics()).toContain('route="/metrics",status_code="404"');
    await app.close();
  });

  it('serves the registries at /metrics on their own port, and nothing else there', async () => {
    server = await serveMetrics([appRegistry('gateway', 2), appRegistry('imaging', 5)], {
      host: '127.0.0.1',
      port: 0,
    });
    const answer = await fetch(`${server.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    expect(text).toContain('lakecams_things_total{service="gateway"} 2');
    expect(text).toContain('lakecams_things_total{service="imaging"} 5');
    expect((await fetch(`${server.url}/health`)).status).toBe(404);
  });

  it('merges apps sharing a process: each family once, with the samples of every app', async () => {
    const texts = await Promise.all([appRegistry('gateway', 2), appRegistry('imaging', 5)].map((r) => r.metrics()));
    const merged = mergeExpositions(texts);
    expect(merged.match(/^# TYPE lakecams_things_total counter$/gm)).toHaveLength(1);
    expect(merged.match(/^# HELP lakecams_things_total Things$/gm)).toHaveLength(1);
    const family = merged.slice(merged.indexOf('# HELP lakecams_things_total'));
    expect(family.split('\n\n')[0]?.split('\n')).toEqual([
      '# HELP lakecams_things_total Things',
      '# TYPE lakecams_things_total counter',
      'lakecams_things_total{service="gateway"} 2',
      'lakecams_things_total{service="imaging"} 5',
    ]);
    expect(merged).toContain('lakecams_gateway_only_total{service="gateway"} 1');
    expect(merged).toContain('lakecams_imaging_only_total{service="imaging"} 1');
    // One app's exposition stays as prom-client wrote it.
    expect(mergeExpositions(texts.slice(0, 1))).toBe(texts[0]);
  });

  it('takes its address from METRICS_PORT and METRICS_HOST, none without a port, never the public port', () => {
    expect(metricsAddressFrom({ PORT: 8080, METRICS_HOST: '127.0.0.1' })).toBeUndefined();
    expect(metricsAddressFrom({ PORT: 8080, METRICS_HOST: '0.0.0.0', METRICS_PORT: 9464 })).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
    expect(() => metricsAddressFrom({ PORT: 8080, METRICS_HOST: '0.0.0.0', METRICS_PORT: 8080 })).toThrow(ConfigError);
    expect(metricsAddressFrom({ PORT: 0, METRICS_HOST: '127.0.0.1', METRICS_PORT: 0 })).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
  });
});
