import { CameraDeleted } from '@lakecams/contracts/messages';
import { createInProcessBus } from '@lakecams/bus';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { registerOutboxMetrics } from '../src/outbox.ts';
import { busPlugin } from '../src/plugins/bus.ts';
import { healthPlugin } from '../src/plugins/health.ts';
import { metricsPlugin } from '../src/plugins/metrics.ts';

const sample = (text: string, name: string) => new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1];

describe('metrics read at scrape time', () => {
  it("reports the outbox's backlog from one reading per scrape, and NaN when it cannot be read", async () => {
    const registry = new Registry();
    const backlog = vi.fn().mockResolvedValue({ events: 3, oldestAgeSeconds: 12.5 });
    registerOutboxMetrics(registry, backlog);
    const text = await registry.metrics();
    expect(sample(text, 'lakecams_outbox_pending_events')).toBe('3');
    expect(sample(text, 'lakecams_outbox_oldest_event_age_seconds')).toBe('12.5');
    expect(backlog).toHaveBeenCalledTimes(1);

    backlog.mockRejectedValue(new Error('connection refused'));
    const unknown = await registry.metrics();
    // prom-client writes `Nan`; Prometheus reads NaN in any case.
    expect(sample(unknown, 'lakecams_outbox_pending_events')).toMatch(/^nan$/i);
    expect(sample(unknown, 'lakecams_outbox_oldest_event_age_seconds')).toMatch(/^nan$/i);
  });

  it("counts the events waiting for each of the app's durable consumers, and says nothing once the bus is gone", async () => {
    const bus = createInProcessBus();
    const app = Fastify();
    await app.register(healthPlugin);
    await app.register(metricsPlugin, { service: 'test' });
    await app.register(busPlugin, { bus, service: 'test', version: '0' });
    await app.ready();
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const subscription = await app.bus.consume(
      CameraDeleted,
      async (message) => {
        await released;
        message.ack();
      },
      { durable: 'svc-test-work' },
    );
    // Another app's consumer on the same bus is not this app's to report.
    await bus.consume((message) => message.ack(), { durable: 'svc-other-work', filter: CameraDeleted.subject });
    await bus.publishEvent(CameraDeleted.subject, { id: 1 });
    await bus.publishEvent(CameraDeleted.subject, { id: 2 });
    const scrape = () => app.metrics.metrics();

    await vi.waitUntil(
      async () =>
        (await scrape()).includes('lakecams_bus_consumer_pending_messages{consumer="svc-test-work",service="test"} 2'),
      { timeout: 5_000, interval: 20 },
    );
    expect(await scrape()).not.toContain('svc-other-work');
    expect(sample(await scrape(), 'lakecams_ready')).toBe('1');
    release();
    await vi.waitUntil(
      async () =>
        (await scrape()).includes('lakecams_bus_consumer_pending_messages{consumer="svc-test-work",service="test"} 0'),
      { timeout: 5_000, interval: 20 },
    );
    await subscription.unsubscribe();
    expect(await scrape()).not.toContain('consumer="svc-test-work"');

    await app.bus.consume(CameraDeleted, (message) => message.ack(), { durable: 'svc-test-work' });
    await bus.close();
    const closed = await scrape();
    expect(closed).not.toMatch(/^lakecams_bus_consumer_pending_messages\{/m);
    expect(sample(closed, 'lakecams_ready')).toBe('0');
    await app.close();
  });
});
