import { leaveFlashMessage } from '@lakecams/session';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FlashNotice } from '../src/chrome/flash-notice.tsx';

describe('flash notice', () => {
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
  });

  it('shows a message left before the navigation on the page it names, once, until dismissed', () => {
    const view = render(<FlashNotice currentPath="/contact" />);
    act(() => leaveFlashMessage('Vielen Dank! Ihre Nachricht ist gesendet.', '/'));
    // Still on the form's page: nothing yet.
    expect(screen.getByRole('status').textContent).toBe('');
    view.rerender(<FlashNotice currentPath="/" />);
    expect(screen.getByRole('status').textContent).toContain('Vielen Dank! Ihre Nachricht ist gesendet.');
    fireEvent.click(screen.getByRole('button', { name: 'Schliessen' }));
    expect(screen.getByRole('status').textContent).toBe('');
    // Shown once: a reload of the page does not repeat it.
    cleanup();
    render(<FlashNotice currentPath="/" />);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('shows at once when the visitor is already on the page, and goes when the visitor leaves it', () => {
    const view = render(<FlashNotice currentPath="/login" />);
    act(() => leaveFlashMessage('Ihr Passwort ist geändert.', '/login'));
    expect(screen.getByRole('status').textContent).toContain('Ihr Passwort ist geändert.');
    view.rerender(<FlashNotice currentPath="/webcams" />);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
