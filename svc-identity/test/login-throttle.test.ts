import { describe, expect, it } from 'vitest';
import { createLoginThrottle, loginLimits } from '../src/login-throttle.ts';

describe('login throttle per account and address', () => {
  const limits = loginLimits(2); // pair 2, account 10, address 20 failures per 15 minutes
  const fail = (throttle: ReturnType<typeof createLoginThrottle>, account: string, address: string, times: number) => {
    for (let n = 0; n < times; n++) throttle.failed(account, address);
  };

  it('stops a guessing pair alone, and lets it try again when the window is over', () => {
    let now = 0;
    const throttle = createLoginThrottle(limits, () => now);
    fail(throttle, 'Anna', '192.0.2.1', 1);
    expect(throttle.waitMs('anna', '192.0.2.1')).toBe(0);
    fail(throttle, 'anna', '192.0.2.1', 1);
    expect(throttle.waitMs('ANNA', '192.0.2.1')).toBe(15 * 60_000);
    expect(throttle.waitMs('bruno', '192.0.2.1')).toBe(0);
    expect(throttle.waitMs('anna', '198.51.100.7')).toBe(0);
    now += 15 * 60_000;
    expect(throttle.waitMs('anna', '192.0.2.1')).toBe(0);
  });

  it('stops guessing spread over many addresses, but not from an address the account logged in from', () => {
    const throttle = createLoginThrottle(limits, () => 0);
    throttle.succeeded('anna', '192.0.2.1');
    for (let n = 0; n < 10; n++) fail(throttle, 'anna', `203.0.113.${n}`, 1);
    expect(throttle.waitMs('anna', '198.51.100.7')).toBeGreaterThan(0);
    expect(throttle.waitMs('anna', '192.0.2.1')).toBe(0);
    // The own address still has its own limit.
    fail(throttle, 'anna', '192.0.2.1', 2);
    expect(throttle.waitMs('anna', '192.0.2.1')).toBeGreaterThan(0);
  });

  it('stops one address guessing many accounts, sparing its accounts that logged in from there', () => {
    const throttle = createLoginThrottle(limits, () => 0);
    throttle.succeeded('bruno', '192.0.2.1');
    for (let n = 0; n < 20; n++) fail(throttle, `user${n}`, '192.0.2.1', 1);
    expect(throttle.waitMs('carla', '192.0.2.1')).toBeGreaterThan(0);
    expect(throttle.waitMs('bruno', '192.0.2.1')).toBe(0);
    expect(throttle.waitMs('carla', '198.51.100.7')).toBe(0);
  });

  it('forgets the failures of a pair that logs in', () => {
    const throttle = createLoginThrottle(limits, () => 0);
    fail(throttle, 'anna', '192.0.2.1', 1);
    throttle.succeeded('anna', '192.0.2.1');
    fail(throttle, 'anna', '192.0.2.1', 1);
    expect(throttle.waitMs('anna', '192.0.2.1')).toBe(0);
  });
});
