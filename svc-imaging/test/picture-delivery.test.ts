import type { Quality } from '@lakecams/contracts';
import { describe, expect, it } from 'vitest';
import type { PictureEncoding } from '../src/store/formats.ts';
import { createPictureDelivery, type DeliveryAnswer } from '../src/delivery/picture-delivery.ts';
import { parsePicturePath } from '../src/delivery/picture-links.ts';
import type { DeliveryState } from '../src/delivery/delivery-state.ts';

const NOW = new Date('2026-11-25T10:00:30Z');
const USER = '6f0c1a52-0000-4000-8000-000000000001';

/** One camera with a current and an earlier picture; the public gets LOW, USER has HIGH. */
function setUp(options: { stored?: (encoding: PictureEncoding) => boolean } = {}) {
  const state: DeliveryState = {
    camera: {
      webcamId: 7,
      name: 'Hafen',
      pattern: '',
      intervalMin: 5,
      lat: 47.2,
      lng: 8.8,
      direction: 90,
      paused: false,
    },
    latest: { name: '202611251100', width: 1920, contentHash: 'a'.repeat(64) },
    offline: null,
    access: {
      configurations: [
        { userId: null, quality: 'LOW' },
        { userId: USER, quality: 'HIGH' },
      ],
      bookings: [],
    },
  };
  const reads: string[] = [];
  const delivery = createPictureDelivery({
    deliveryStates: { of: async (name) => (name === 'Hafen' ? state : undefined) },
    captures: {
      named: async (_webcamId, name) =>
        name === '202611251055' ? { name, width: 1920, contentHash: 'b'.repeat(64) } : undefined,
    },
    layers: { of: async () => [] },
    store: {
      read: async (camera: string, name: string, quality: Quality, encoding: PictureEncoding) => {
        reads.push(`${camera}/${name}/${quality}/${encoding}`);
        return (options.stored ?? (() => true))(encoding) ? Buffer.from(`${name}-${quality}-${encoding}`) : null;
      },
    },
    links: { secret: 'test-secret-of-sixteen', baseUrl: '' },
    recentPicturesBytes: 1024 * 1024,
    clock: () => NOW,
  });
  return { delivery, reads };
}

const anybody = { userId: null, roles: [], referer: null, accept: 'image/jpeg' };
const owner = { ...anybody, userId: USER };
/** Signed in, without a configuration of its own: one of "all other users". */
const member = { ...anybody, userId: 'someone-else' };

function redirected(answer: DeliveryAnswer) {
  if (answer.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  const url = new URL(answer.location, 'http://portal');
  const [, , camera, file] = url.pathname.split('/');
  const wanted = parsePicturePath(camera ?? '', file ?? '');
  if (!wanted) throw new Error(`not a picture name: ${answer.location}`);
  const signature = { e: url.searchParams.get('e') ?? undefined, s: url.searchParams.get('s') ?? undefined };
  return { answer, wanted, signature };
}

describe('picture delivery', () => {
  it("sends anybody to the current picture's public name, unsigned and private for 30 s", async () => {
    const { delivery } = setUp();
    const { answer, wanted, signature } = redirected(await delivery.entitlement(anybody, 'Hafen', null));
    expect(wanted).toMatchObject({ camera: 'Hafen', imageName: '202611251100', quality: 'POOR', encoding: 'jpeg' });
    expect(signature).toEqual({ e: undefined, s: undefined });
    expect(answer.headers).toMatchObject({
      'cache-control': 'private, max-age=30',
      'x-image-quality': 'POOR; default',
      'x-image-name': '202611251100',
    });
    // A signed-in user gets the level for all other users, by a signed link: it is above the public one.
    const signedIn = redirected(await delivery.entitlement(member, 'Hafen', null));
    expect(signedIn.wanted.quality).toBe('LOW');
    expect(signedIn.answer.headers['x-image-quality']).toBe('LOW; all other users');
    expect(signedIn.signature.e).toBeDefined();
  });

  it('signs the name of a level above the public one, and refuses that name unsigned', async () => {
    const { delivery } = setUp();
    const { wanted, signature } = redirected(await delivery.entitlement(owner, 'Hafen', null));
    expect(wanted.quality).toBe('HIGH');
    expect(signature.e).toBeDefined();
    const served = await delivery.picture(wanted, signature);
    expect(served).toMatchObject({ kind: 'picture', contentType: 'image/jpeg' });
    expect(served.kind === 'picture' && served.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    // How wide the camera took it, for a page to tell a lower level from the camera's limit.
    expect(served.kind === 'picture' && served.headers['x-image-full-width']).toBe('1920');
    expect(await delivery.picture(wanted, {})).toMatchObject({ kind: 'refused', status: 403 });
  });

  it('answers a named earlier picture, and 404 for a minute without one or an unknown camera', async () => {
    const { delivery } = setUp();
    const { wanted, answer } = redirected(await delivery.entitlement(anybody, 'Hafen', '202611251055'));
    expect(wanted.imageName).toBe('202611251055');
    expect(answer.headers['cache-control']).toBe('private, max-age=3600');
    expect(await delivery.entitlement(anybody, 'Hafen', '202611251050')).toMatchObject({
      kind: 'refused',
      status: 404,
      message: 'No image 202611251050 of Hafen',
    });
    expect(await delivery.entitlement(anybody, 'Nirgends', null)).toMatchObject({ kind: 'refused', status: 404 });
  });

  it('reads a picture once, keeps it, and answers a caller who has it without reading', async () => {
    const { delivery, reads } = setUp();
    const { wanted, signature } = redirected(await delivery.entitlement(member, 'Hafen', null));
    const first = await delivery.picture(wanted, signature);
    const second = await delivery.picture(wanted, signature);
    expect(second).toEqual(first);
    expect(reads).toEqual(['Hafen/202611251100/LOW/jpeg']);
    const etag = first.kind === 'picture' ? first.etag : '';
    const again = await delivery.picture(wanted, signature, (tag) => tag === etag);
    expect(again).toMatchObject({ kind: 'not-modified', etag });
    expect(reads).toHaveLength(1);
  });

  it('refuses a name whose content is not the capture any more', async () => {
    const { delivery } = setUp();
    const { wanted, signature } = redirected(await delivery.entitlement(anybody, 'Hafen', null));
    const answer = await delivery.picture({ ...wanted, content: '0'.repeat(12) }, signature);
    expect(answer).toMatchObject({ kind: 'refused', status: 404 });
  });

  it('sends a client that takes AVIF to the JPEG when the picture has no AVIF copy', async () => {
    const { delivery } = setUp({ stored: (encoding) => encoding === 'jpeg' });
    const { wanted, signature } = redirected(
      await delivery.entitlement({ ...member, accept: 'image/avif,image/webp,*/*' }, 'Hafen', null),
    );
    expect(wanted.encoding).toBe('avif');
    const answer = await delivery.picture(wanted, signature);
    expect(answer.kind === 'redirect' && answer.location).toMatch(/\/202611251100-LOW-[0-9a-f]{12}\.jpg\?e=\d+&s=/);
  });
});
