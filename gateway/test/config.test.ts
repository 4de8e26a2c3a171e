import { describe, expect, it } from 'vitest';
import { devRemoteOriginsFrom, trustProxyFrom } from '../src/config.ts';

describe('TRUST_PROXY', () => {
  it('believes no proxy by default, so a client cannot pick the address rate limits key on', () => {
    expect(trustProxyFrom('false')).toBe(false);
    expect(trustProxyFrom('')).toBe(false);
  });

  it('takes a hop count, addresses or CIDRs', () => {
    const oneHop = trustProxyFrom('1') as (address: string, hop: number) => boolean;
    expect([oneHop('10.0.0.1', 0), oneHop('10.0.0.2', 1)]).toEqual([true, false]);
    expect(trustProxyFrom('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(trustProxyFrom('true')).toBe(true);
  });
});

describe('DEV_REMOTE_ORIGINS', () => {
  it("allows no origin besides the visitor's machine by default", () => {
    expect(devRemoteOriginsFrom(undefined)).toEqual([]);
    expect(devRemoteOriginsFrom(' ')).toEqual([]);
  });

  it('takes http(s) origins, comma-separated, and stops on anything else', () => {
    expect(devRemoteOriginsFrom('https://review.seecam.example, http://10.0.0.5:3101')).toEqual([
      'https://review.seecam.example',
      'http://10.0.0.5:3101',
    ]);
    for (const wrong of [
      'review.seecam.example',
      'https://review.seecam.example/',
      'https://*.example',
      'ftp://x.example',
    ]) {
      expect(() => devRemoteOriginsFrom(wrong), wrong).toThrow(/DEV_REMOTE_ORIGINS/);
    }
  });
});
