import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from '../src/plugins/errors.ts';

describe('routes that are not there', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(errorsPlugin);
    app.get('/api/News/News/news', async () => 'news');
    app.put('/api/News/News/news', async () => 'saved');
    app.post('/api/Webcam/Set/:id', async () => 'set');
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers 405 with the methods a path takes when it is asked with another', async () => {
    const answer = await app.inject({ method: 'DELETE', url: '/api/News/News/news?x=1' });
    expect(answer.statusCode).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD, PUT');
    expect(answer.json()).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'DELETE is not allowed on /api/News/News/news; it takes GET, HEAD, PUT',
    });
    const withParameter = await app.inject({ method: 'GET', url: '/api/Webcam/Set/7' });
    expect([withParameter.statusCode, withParameter.headers.allow]).toEqual([405, 'POST']);
  });

  it('answers 404 for a path no method takes', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/News/Nothing' });
    expect([answer.statusCode, answer.json().message]).toEqual([404, 'Route GET /api/News/Nothing not found']);
  });
});
