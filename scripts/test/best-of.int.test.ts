import { type BestOf, type CameraBestOf, imageNameOf, SERVICES } from '@lakecams/contracts';
import { createKysely } from '@lakecams/service-kit';
import { createTestClient, TEST_DATABASE_SERVER, testDatabasePrefix } from '@lakecams/service-kit/testing';
import {
  type CaptureContext,
  captureTick,
  type Database,
  imagingPartsOf,
  pruneImages,
  renderDemoImage,
} from '@lakecams/svc-imaging/testing';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPortal, startPortal } from '../portal.ts';

const CAMERA = 'Richterswil';
const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

describe('best of day and the archive tiers, through the gateway, on real PostgreSQL and the image store', () => {
  const databases = testDatabasePrefix();
  const admin = { username: 'bestofadmin', email: 'bestof@example.org', password: 'Adm1n!Secret' };
  let portal: RunningPortal;
  let dataDir: string;
  let context: CaptureContext;
  /** svc-imaging's database as the test looks into it. */
  let imagingDb: Kysely<Database>;
  const anonymous = () => createTestClient(portal.url);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lakecams-bestof-'));
    portal = await startPortal({
      port: 0,
      logLevel: 'silent',
      dataDir,
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      frontendRoot: tmpdir(),
      admin,
      schedule: false,
      demoBackfillMinutes: 30,
    });
    context = imagingPartsOf(portal.services.imaging).capture.context;
    imagingDb = createKysely<Database>({ connectionString: portal.databaseUrls.imaging });
  });

  afterAll(async () => {
    await imagingDb?.destroy();
    await portal?.close();
    await databases.dropAll(SERVICES);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The camera's captures of a day in svc-imaging, with their scores. */
  const capturesOf = async (webcamId: number, day: string) =>
    imagingDb
      .selectFrom('captures')
      .select(['name', 'score'])
      .where('webcamId', '=', webcamId)
      .where('status', '=', 'done')
      .where('name', '>=', `${day}0000`)
      .where('name', '<=', `${day}2359`)
      .orderBy('name')
      .execute();
  const cameraRow = async () => {
    const row = () => imagingDb.selectFrom('cameras').selectAll().where('name', '=', CAMERA).executeTakeFirst();
    // svc-imaging learns the demo cameras from svc-webcam's events.
    await expect.poll(row, { timeout: 60_000 }).toBeDefined();
    return (await row()) as NonNullable<Awaited<ReturnType<typeof row>>>;
  };

  it('answers the day’s best picture by score, from real captures', { timeout: 180_000 }, async () => {
    const camera = await cameraRow();
    const today = imageNameOf(new Date()).slice(0, 8);
    // The demo history is captured in the background; svc-webcam lists each picture once its event arrived.
    const looks: number[] = [];
    const settled = async () => {
      const stored = (await capturesOf(camera.webcamId, today)).length;
      const listed = (await anonymous().get(`/api/Webcam/GetImageHistory?name=${CAMERA}`)).json.images.length;
      looks.push(stored);
      // Done once the count holds still over three looks and every stored picture is listed.
      return stored > 2 && listed === stored && looks.slice(-3).every((count) => count === stored) && looks.length >= 3;
    };
    await expect.poll(settled, { timeout: 150_000, interval: 3_000 }).toBe(true);
    const captures = await capturesOf(camera.webcamId, today);
    const top = Math.max(...captures.map((capture) => capture.score ?? -1));
    expect(top).toBeGreaterThan(0);
    const best = await anonymous().get(`/api/Webcam/GetBestOf?name=${CAMERA}&day=${isoDay(today)}`);
    expect(best.status).toBe(200);
    expect(best.json).toMatchObject({ score: expect.closeTo(top, 1), chosenBy: 'score' });
    expect(captures.find((capture) => capture.name === best.json.name)?.score).toBeCloseTo(top, 1);
    const all = await anonymous().get('/api/Webcam/GetBestOfDay');
    expect(all.json.pictures.map((picture: CameraBestOf) => picture.camera)).toContain(CAMERA);
  });

  it('refuses a malformed day, month or name with 400 and answers 404 for an unknown camera or an empty day', async () => {
    const client = anonymous();
    for (const query of [
      'name=Richterswil&day=2026-13-01',
      'name=Richterswil&day=gestern',
      'name=..%2Fx&day=2026-11-01',
    ]) {
      const answer = await client.get(`/api/Webcam/GetBestOf?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await client.get('/api/Webcam/GetImageDays?name=Richterswil&month=2026-13')).status).toBe(400);
    const unknown = await client.get('/api/Webcam/GetBestOf?name=Nirgendwo&day=2026-11-01');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('Unknown camera Nirgendwo');
    const empty = await client.get(`/api/Webcam/GetBestOf?name=${CAMERA}&day=2001-01-01`);
    expect(empty.status).toBe(404);
    expect(empty.json.message).toContain('no pictures');
  });

  it('lets an admin choose the best picture of a day and give the choice back; others get 401', async () => {
    const camera = await cameraRow();
    const today = imageNameOf(new Date()).slice(0, 8);
    const day = isoDay(today);
    const captures = await capturesOf(camera.webcamId, today);
    const scored = (await anonymous().get(`/api/Webcam/GetBestOf?name=${CAMERA}&day=${day}`)).json as BestOf;
    const other = captures.find((capture) => capture.name !== scored.name)?.name as string;

    const refused = await anonymous().put(`/api/Webcam/SetBestOf?name=${CAMERA}&day=${day}&image=${other}`);
    expect(refused.status).toBe(401);
    expect((await anonymous().delete(`/api/Webcam/SetBestOf?name=${CAMERA}&day=${day}`)).status).toBe(401);

    const client = createTestClient(portal.url);
    client.setToken((await client.post('/api/Authenticate/Authenticate', admin)).json.jwtToken);
    const missing = await client.put(`/api/Webcam/SetBestOf?name=${CAMERA}&day=${day}&image=${today}0001`);
    expect(missing.status).toBe(404);
    const otherDay = await client.put(`/api/Webcam/SetBestOf?name=${CAMERA}&day=2001-01-01&image=${other}`);
    expect(otherDay.status).toBe(400);

    const chosen = await client.put(`/api/Webcam/SetBestOf?name=${CAMERA}&day=${day}&image=${other}`);
    expect(chosen.status).toBe(200);
    expect(chosen.json).toMatchObject({ name: other, chosenBy: 'admin' });
    expect((await anonymous().get(`/api/Webcam/GetBestOf?name=${CAMERA}&day=${day}`)).json).toMatchObject({
      name: other,
      chosenBy: 'admin',
    });
    const list = (await anonymous().get(`/api/Webcam/GetBestOfDay?day=${day}`)).json.pictures as CameraBestOf[];
    expect(list.find((picture) => picture.camera === CAMERA)).toMatchObject({ name: other, chosenBy: 'admin' });
    // svc-imaging hears the choice and keeps that picture forever.
    await expect
      .poll(() =>
        imagingDb
          .selectFrom('bestOfChoices')
          .select('name')
          .where('webcamId', '=', camera.webcamId)
          .where('day', '=', today)
          .executeTakeFirst(),
      )
      .toEqual({ name: other });

    const back = await client.delete(`/api/Webcam/SetBestOf?name=${CAMERA}&day=${day}`);
    expect(back.json).toMatchObject({ chosenBy: 'score' });
    expect(back.json).toEqual((await anonymous().get(`/api/Webcam/GetBestOf?name=${CAMERA}&day=${day}`)).json);
    await expect
      .poll(() => imagingDb.selectFrom('bestOfChoices').select('name').where('day', '=', today).executeTakeFirst())
      .toBeUndefined();
  });

  // Seven captures with every level and format: CPU work a busy machine may take minutes for.
  it('prunes by tiers: all for the retention, the best of each hour in the archive, the best of the day beyond', {
    timeout: 180_000,
  }, async () => {
    const camera = await cameraRow();
    const demo = { ...context, source: (_: unknown, at: Date) => renderDemoImage(camera.name, at) };
    const now = new Date();
    const daysAgo = (days: number, hour: number, minute: number) => {
      const at = new Date(now.getTime() - days * 24 * 3600_000);
      at.setUTCHours(hour, minute, 0, 0);
      return at;
    };
    // 20 days back: three pictures at 10:xx UTC, one at 12:00; 400 days back: three pictures.
    const archived = [daysAgo(20, 10, 0), daysAgo(20, 10, 20), daysAgo(20, 10, 40), daysAgo(20, 12, 0)];
    const ancient = [daysAgo(400, 9, 0), daysAgo(400, 11, 0), daysAgo(400, 13, 0)];
    for (const at of [...archived, ...ancient]) expect((await captureTick(demo, camera, at)).outcome).toBe('captured');
    const archiveDay = imageNameOf(archived[0] as Date).slice(0, 8);
    const ancientDay = imageNameOf(ancient[0] as Date).slice(0, 8);
    await expect
      .poll(async () => {
        const answer = await anonymous().get(`/api/Webcam/GetImageHistory?name=${CAMERA}&day=${isoDay(ancientDay)}`);
        return answer.json.images.length;
      })
      .toBe(3);

    const ancientBefore = await capturesOf(camera.webcamId, ancientDay);
    const ancientBest = [...ancientBefore].sort((a, b) => (b.score ?? -1) - (a.score ?? -1))[0]?.name as string;
    const store = context.store as unknown as { path(camera: string, name: string, quality: 'POOR'): string };
    const result = await pruneImages(context, { retentionDays: 14, archiveDays: 365 }, now);
    expect(result).toMatchObject({ outcome: 'pruned', captures: 4, days: 2 });

    const archiveLeft = (await capturesOf(camera.webcamId, archiveDay)).map((capture) => capture.name);
    expect(archiveLeft).toHaveLength(2);
    expect(archiveLeft).toContain(imageNameOf(archived[3] as Date));
    expect((await capturesOf(camera.webcamId, ancientDay)).map((capture) => capture.name)).toEqual([ancientBest]);
    for (const capture of ancientBefore) {
      expect(existsSync(store.path(CAMERA, capture.name, 'POOR')), capture.name).toBe(capture.name === ancientBest);
    }
    // svc-webcam's list follows: the slider and the calendar show only what is kept.
    await expect
      .poll(async () => {
        const answer = await anonymous().get(`/api/Webcam/GetImageHistory?name=${CAMERA}&day=${isoDay(ancientDay)}`);
        return answer.json.images.map((image: { name: string }) => image.name);
      })
      .toEqual([ancientBest]);
    await expect
      .poll(async () => {
        const answer = await anonymous().get(`/api/Webcam/GetImageHistory?name=${CAMERA}&day=${isoDay(archiveDay)}`);
        return answer.json.images.length;
      })
      .toBe(2);
    expect((await anonymous().get(`/api/Image/Get/camera/${CAMERA}/${ancientBest}.jpg`)).status).toBe(200);
    const month = `${ancientDay.slice(0, 4)}-${ancientDay.slice(4, 6)}`;
    const days = await anonymous().get(`/api/Webcam/GetImageDays?name=${CAMERA}&month=${month}`);
    expect(days.json).toMatchObject({ camera: CAMERA, month, days: [isoDay(ancientDay)], first: isoDay(ancientDay) });
    // Nothing more to thin the next night.
    const again = await pruneImages(
      { ...context, replicaId: 'tomorrow' },
      { retentionDays: 14, archiveDays: 365 },
      new Date(now.getTime() + 24 * 3600_000),
    );
    expect(again).toMatchObject({ outcome: 'pruned', captures: 0 });
  });
});
