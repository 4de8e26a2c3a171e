import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Form, FormActions, FormCard, Notice } from '../src/forms/form-parts.tsx';

describe('form parts', () => {
  afterEach(cleanup);

  it('a form sends through its handler, never by reloading the page, and checks its fields itself', () => {
    const onSubmit = vi.fn();
    render(
      <Form onSubmit={onSubmit} label="Kontakt">
        <FormActions>
          <button type="submit">Senden</button>
        </FormActions>
      </Form>,
    );
    const form = screen.getByRole('form', { name: 'Kontakt' }) as HTMLFormElement;
    expect(form.noValidate).toBe(true);
    const submitted = fireEvent.submit(form);
    expect(submitted).toBe(false);
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Senden' }).parentElement?.className).toBe('form-actions');
  });

  it('a card is a region named by its heading, at the level the page needs', () => {
    render(
      <>
        <FormCard title="Profil">
          <p>Ihre Angaben</p>
        </FormCard>
        <FormCard title="Passwort" headingLevel={3}>
          <p>Neu setzen</p>
        </FormCard>
      </>,
    );
    expect(screen.getByRole('region', { name: 'Profil' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Profil' }).tagName).toBe('H2');
    expect(screen.getByRole('heading', { name: 'Passwort' }).tagName).toBe('H3');
  });

  it('an error notice is announced at once, success and information politely', () => {
    render(
      <>
        <Notice tone="error">Fehlgeschlagen</Notice>
        <Notice tone="success">Gespeichert</Notice>
        <Notice tone="info">Gut zu wissen</Notice>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Fehlgeschlagen');
    expect(screen.getAllByRole('status').map((notice) => notice.textContent)).toEqual(['Gespeichert', 'Gut zu wissen']);
    expect(screen.getByRole('alert').className).toBe('notice notice--error');
  });
});
