import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { logFormatFrom, prettyStream } from '../src/server.ts';

describe('log lines', () => {
  it('are readable on a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormatFrom(undefined, true)).toBe('pretty');
    expect(logFormatFrom(undefined, false)).toBe('json');
    expect(logFormatFrom('json', true)).toBe('json');
    expect(logFormatFrom('pretty', false)).toBe('pretty');
    expect(() => logFormatFrom('yaml', true)).toThrow(ConfigError);
  });

  it('read time, level, service, request id and message on one line', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk) => chunks.push(String(chunk)));
    const logger = pino({ name: 'gateway', level: 'info' }, prettyStream(out));
    logger.child({ service: 'webcam' }).child({ reqId: 'visit-42' }).info('camera saved');
    logger.warn({ camera: 'Ufer' }, 'capture failed');
    const [first = '', ...rest] = chunks.join('').split('\n');
    expect(first).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: webcam \[visit-42\] camera saved$/);
    expect(rest.join('\n')).toMatch(/\] WARN: gateway capture failed\n\s+camera: "Ufer"/);
  });
});
