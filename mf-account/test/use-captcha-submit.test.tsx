import { ApiError } from '@lakecams/session';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useCaptchaSubmit } from '../src/captcha/use-captcha-submit.ts';
import { CAPTCHA_PENDING_HINT } from '../src/forms/submit-button.tsx';

const FAILED = 'Ihre Nachricht konnte nicht gesendet werden.';

function renderSubmit(valid = true) {
  const form = { attemptSubmit: vi.fn(() => valid) };
  return { form, ...renderHook(() => useCaptchaSubmit(form, FAILED)) };
}

describe('useCaptchaSubmit', () => {
  it('waits for the captcha, and sends nothing before it is solved', async () => {
    const { result } = renderSubmit();
    expect(result.current.blockedBy).toBe(CAPTCHA_PENDING_HINT);
    const send = vi.fn(async () => {});
    await act(() => result.current.submit(send));
    expect(send).not.toHaveBeenCalled();
  });

  it('sends nothing while the form is invalid', async () => {
    const { result, form } = renderSubmit(false);
    act(() => result.current.captcha.onChange('payload-1'));
    const send = vi.fn(async () => {});
    await act(() => result.current.submit(send));
    expect(form.attemptSubmit).toHaveBeenCalledOnce();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends with the solved payload and stays busy while the page moves on', async () => {
    const { result } = renderSubmit();
    act(() => result.current.captcha.onChange('payload-1'));
    expect(result.current.blockedBy).toBeNull();
    const send = vi.fn(async () => {});
    await act(() => result.current.submit(send));
    expect(send).toHaveBeenCalledWith('payload-1');
    expect(result.current.busy).toBe(true);
    expect(result.current.failure).toBeNull();
  });

  it("after a failed send: the server's message, and a new challenge solved at once", async () => {
    const { result } = renderSubmit();
    act(() => result.current.captcha.onChange('payload-1'));
    const firstKey = result.current.captchaKey;
    expect(result.current.captcha.solveNow).toBe(false);
    await act(() =>
      result.current.submit(async () => {
        throw new ApiError(400, '/api/Contact/Contact', 'This code is not valid');
      }),
    );
    expect(result.current.failure).toBe('Dieser Code ist nicht gültig.');
    expect(result.current.busy).toBe(false);
    expect(result.current.captchaKey).not.toBe(firstKey);
    expect(result.current.captcha.solveNow).toBe(true);
    expect(result.current.blockedBy).toBe(CAPTCHA_PENDING_HINT);

    act(() => result.current.captcha.onChange('payload-2'));
    await act(() =>
      result.current.submit(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(result.current.failure).toBe(FAILED);
  });
});
