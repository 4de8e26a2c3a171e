import { describe, expect, it } from 'vitest';
import { trustProxyFrom } from '../src/config.ts';

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
