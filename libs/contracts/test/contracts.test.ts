import { describe, expect, it } from 'vitest';
import { imageNameOf, isValidCameraName, localDateParts, ownerOfApiPath } from '../src/index.ts';

describe('contracts', () => {
  it('routes each controller to its owning service', () => {
    expect(ownerOfApiPath('/api/Webcam/GetImages?name=x')).toBe('webcam');
    expect(ownerOfApiPath('/api/News/News/news')).toBe('webcam');
    expect(ownerOfApiPath('/api/Authenticate/Authenticate')).toBe('identity');
    expect(ownerOfApiPath('/api/Referer/GetPagesUses/PageUser')).toBe('referer');
    expect(ownerOfApiPath('/api/Image/Get/camera/a.jpg')).toBe('imaging');
    expect(ownerOfApiPath('/api/Unknown/x')).toBeUndefined();
    expect(ownerOfApiPath('/api/constructor/x')).toBeUndefined();
    expect(ownerOfApiPath('/webcams')).toBeUndefined();
    expect(ownerOfApiPath('/pictures/Richterswil/202611250500-LOW-0123456789ab.avif')).toBe('imaging');
  });

  it('names images by their local capture minute', () => {
    expect(imageNameOf(new Date('2026-07-01T10:05:30Z'))).toBe('202607011205');
    expect(imageNameOf(new Date('2026-12-31T23:59:00Z'))).toBe('202701010059');
  });

  it('reuses the formatted minute only within that minute, across a clock change', () => {
    // Zurich moves from 02:00 CET to 03:00 CEST at 01:00 UTC on 2026-03-29.
    expect(imageNameOf(new Date('2026-03-29T00:59:05Z'))).toBe('202603290159');
    expect(imageNameOf(new Date('2026-03-29T00:59:55Z'))).toBe('202603290159');
    expect(imageNameOf(new Date('2026-03-29T01:00:00Z'))).toBe('202603290300');
    expect(imageNameOf(new Date('2026-03-29T01:00:00Z'), 'UTC')).toBe('202603290100');
    // A caller changing what it got does not change the next answer.
    const parts = localDateParts(new Date('2026-03-29T01:00:10Z'));
    parts.HH = 'xx';
    expect(localDateParts(new Date('2026-03-29T01:00:20Z')).HH).toBe('03');
  });

  it('accepts only safe camera names', () => {
    expect(isValidCameraName('Rapperswil-Seedamm')).toBe(true);
    for (const bad of ['', '../x', 'a/b', 'a.b', 'x'.repeat(65), '-start']) expect(isValidCameraName(bad)).toBe(false);
  });
});

describe('administration rules', async () => {
  const { validateForm, CAMERA_RULES, POSITION_RULES, REFERER_RULES } = await import('../src/index.ts');
  const { LAYER_RULES, isCronDefinition } = await import('../src/cron.ts');
  it('accepts a sensible camera and refuses out-of-range values', () => {
    const camera = {
      name: 'Neue-Kamera',
      pattern: 'https://cam.example/{HH}{mm}.jpg',
      distance: 6,
      angle: 70,
      intervalMin: 5,
    };
    expect(validateForm(CAMERA_RULES, camera)).toEqual({});
    expect(validateForm(CAMERA_RULES, { ...camera, distance: 0.5, angle: 361, intervalMin: 2.5 })).toEqual({
      distance: 'Distance must be between 1 and 20 km',
      angle: 'Angle must be between 1 and 360',
      intervalMin: 'Interval must be between 1 and 60 minutes',
    });
    // Pictures and streams fetched, or where a pushing camera uploads; nothing else.
    for (const pattern of [
      'rtsp://kamera.example/stream1',
      'rtsps://kamera.example/live',
      'ftp://portal.example:2121/',
    ])
      expect(validateForm(CAMERA_RULES, { ...camera, pattern })).toEqual({});
    for (const pattern of ['file:///etc/passwd', 'javascript:alert(1)', 'gopher://x', 'kamera.example/bild.jpg'])
      expect(validateForm(CAMERA_RULES, { ...camera, pattern }).pattern).toBe('This is not a url');
  });
  it('keeps positions on the lake valid', () => {
    expect(validateForm(POSITION_RULES, { lat: 47.22, lng: 8.73, direction: 250 })).toEqual({});
    expect(validateForm(POSITION_RULES, { lat: 46.9, lng: 47.5, direction: 360 })).toEqual({
      lat: 'Latitude must be between 47 and 48',
      lng: 'Longitude must be between 5.9 and 10.5',
      direction: 'Direction must be between 0 and 359',
    });
  });
  it('knows five-field crons and urls', () => {
    for (const cron of ['* * * * *', '*/5 8-18 * * 1-5', '0 12 1 1 *'])
      expect(validateForm(LAYER_RULES, { cron })).toEqual({});
    for (const cron of ['* * * *', 'every minute', '* * * * * *', '@daily'])
      expect(validateForm(LAYER_RULES, { cron }).cron).toBe('This is not a cron definition');
    expect(validateForm(REFERER_RULES, { url: 'https://partner.example/seite', userEmail: 'a@b.ch' })).toEqual({});
    expect(validateForm(REFERER_RULES, { url: 'partner.example', userEmail: 'a@b.ch' }).url).toBe('This is not a url');
  });
  it('reads crons as croner, which schedules the layers, does', () => {
    for (const cron of ['0 0 L * *', '0 8 * * MON-FRI', '0 0 ? * 1#2', '15 6 29 2 *', ' */5 * * * * '])
      expect(isCronDefinition(cron), cron).toBe(true);
    // Values out of range, a step of 0, backwards ranges, empty list entries, and a day that never comes.
    for (const cron of [
      '99 99 99 99 99',
      '*/0 * * * *',
      '60-0 * * * *',
      '5-1/0 * * * *',
      '1,,2 * * * *',
      '- * * * *',
      '0 24 * * *',
      '0 0 31 2 *',
    ]) {
      expect(isCronDefinition(cron), cron).toBe(false);
      expect(validateForm(LAYER_RULES, { cron }).cron, cron).toBe('This is not a cron definition');
    }
  });
  it('keeps croner out of the main entry, which the home page bundles', async () => {
    const { readFile } = await import('node:fs/promises');
    const pending = ['index.ts'];
    for (const seen = new Set<string>(); pending.length > 0; ) {
      const file = pending.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = await readFile(new URL(`../src/${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/from '(croner|\.\/cron\.ts)'/);
      for (const [, local] of source.matchAll(/from '\.\/([\w-]+\.ts)'/g)) pending.push(local as string);
    }
  });
});

describe('names people type', async () => {
  const { validateForm, CONTACT_RULES, LOGIN_RULES, PROFILE_RULES, REGISTER_RULES, INVISIBLE_CHARACTERS } =
    await import('../src/index.ts');
  const { LAYER_RULES } = await import('../src/cron.ts');
  const { HIDDEN_CHARACTERS } = await import('../src/testing.ts');
  const hidden = HIDDEN_CHARACTERS;

  it('refuses invisible and text-direction characters in every name field, with the same message', () => {
    const fields: [Record<string, unknown>, string, string][] = [
      [REGISTER_RULES, 'firstname', 'Firstname'],
      [REGISTER_RULES, 'lastname', 'Lastname'],
      [REGISTER_RULES, 'username', 'Username'],
      [PROFILE_RULES, 'firstName', 'Firstname'],
      [PROFILE_RULES, 'lastName', 'Lastname'],
      [LOGIN_RULES, 'username', 'Username'],
      [CONTACT_RULES, 'name', 'Name'],
    ];
    for (const [rules, field, label] of fields) {
      for (const character of hidden) {
        const value = `Mar${character}tina Meier`;
        const errors = validateForm(rules as never, { [field]: value }) as Record<string, string>;
        expect(errors[field], `${field} ${JSON.stringify(character)}`).toBe(
          `${label} must not contain invisible or text-direction characters`,
        );
      }
      const errors = validateForm(rules as never, { [field]: 'Zoë Müller-Ångström' }) as Record<string, string>;
      expect(errors[field], field).toBeUndefined();
    }
    expect(hidden.every((character) => new RegExp(`[${INVISIBLE_CHARACTERS}]`).test(character))).toBe(true);
  });

  it('bounds the layer cron', () => {
    expect(validateForm(LAYER_RULES, { cron: `0 ${'1,'.repeat(60)}1 * * *` }).cron).toBe(
      'A cron definition has at most 100 characters',
    );
    expect(LAYER_RULES.cron.maxLength.value).toBe(100);
  });
});
