import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ModalDialog } from '../src/modal-dialog.tsx';

// jsdom has <dialog> but neither showModal nor close.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

describe('ModalDialog', () => {
  afterEach(cleanup);

  it('opens as a modal dialog named by its title', () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal');
    render(
      <ModalDialog title="Kamera bearbeiten" onClose={() => {}}>
        <p>Inhalt</p>
      </ModalDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Kamera bearbeiten' }) as HTMLDialogElement;
    expect(showModal).toHaveBeenCalledOnce();
    expect(dialog.open).toBe(true);
    expect(dialog.className).toBe('modal-dialog');
    expect(screen.getByText('Inhalt').closest('.modal-dialog__body')).not.toBeNull();
    showModal.mockRestore();
  });

  it('is wider when asked to', () => {
    render(
      <ModalDialog title="Layer" onClose={() => {}} wide>
        <p>Inhalt</p>
      </ModalDialog>,
    );
    expect(screen.getByRole('dialog').className).toBe('modal-dialog modal-dialog--wide');
  });

  it('asks its owner to close it from the × button and from Escape, which the browser would otherwise act on', () => {
    const onClose = vi.fn();
    render(
      <ModalDialog title="Kamera bearbeiten" onClose={onClose}>
        <p>Inhalt</p>
      </ModalDialog>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Schliessen' }));
    expect(onClose).toHaveBeenCalledOnce();
    const cancel = new Event('cancel', { cancelable: true });
    screen.getByRole('dialog').dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('closes when its owner unmounts it', () => {
    const { unmount } = render(
      <ModalDialog title="Kamera bearbeiten" onClose={() => {}}>
        <p>Inhalt</p>
      </ModalDialog>,
    );
    const dialog = screen.getByRole('dialog') as HTMLDialogElement;
    unmount();
    expect(dialog.open).toBe(false);
  });
});
