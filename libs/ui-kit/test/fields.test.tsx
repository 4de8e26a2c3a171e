import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailField, PhoneField, SelectField, TextAreaField, TextField } from '../src/forms/fields.tsx';
import type { BoundField } from '../src/forms/use-form.ts';

function bound(overrides: Partial<BoundField> = {}): BoundField {
  return { name: 'field', value: '', onValueChange: vi.fn(), onBlur: vi.fn(), error: null, ...overrides };
}

describe('form fields', () => {
  afterEach(cleanup);

  it('labels the control and reports each change and the leaving of the field', () => {
    const field = bound({ name: 'lastName', value: 'Muster' });
    render(<TextField field={field} label="Nachname" autoComplete="family-name" />);
    const input = screen.getByLabelText('Nachname') as HTMLInputElement;
    expect(input.name).toBe('lastName');
    expect(input.value).toBe('Muster');
    expect(input.autocomplete).toBe('family-name');
    fireEvent.change(input, { target: { value: 'Meier' } });
    expect(field.onValueChange).toHaveBeenCalledWith('Meier');
    fireEvent.blur(input);
    expect(field.onBlur).toHaveBeenCalledOnce();
  });

  it('shows its message, marks the control invalid and describes it by hint and message', () => {
    render(<TextField field={bound({ error: 'Bitte ausfüllen.' })} label="Name" hint="Wie auf dem Ausweis" />);
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id));
    expect(described.map((element) => element?.textContent)).toEqual(['Wie auf dem Ausweis', 'Bitte ausfüllen.']);
    expect(input.closest('.form-field')?.classList.contains('form-field--invalid')).toBe(true);
  });

  it('is valid and undescribed without hint and message', () => {
    render(<TextField field={bound()} label="Name" />);
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBe('false');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('counts the characters against the maximum', () => {
    render(<TextField field={bound({ value: 'Muster' })} label="Nachname" counterMax={50} />);
    expect(screen.getByText('6/50')).toBeTruthy();
  });

  it('offers the number keyboard that fits the step', () => {
    render(
      <>
        <TextField field={bound({ name: 'lat' })} label="Breite" type="number" step="any" />
        <TextField field={bound({ name: 'minutes' })} label="Intervall" type="number" />
      </>,
    );
    expect(screen.getByLabelText('Breite').getAttribute('inputmode')).toBe('decimal');
    expect(screen.getByLabelText('Intervall').getAttribute('inputmode')).toBe('numeric');
  });

  it('a text area reports its changes too', () => {
    const field = bound({ name: 'message' });
    render(<TextAreaField field={field} label="Nachricht" rows={3} />);
    const area = screen.getByLabelText('Nachricht') as HTMLTextAreaElement;
    expect(area.rows).toBe(3);
    fireEvent.change(area, { target: { value: 'Grüezi' } });
    expect(field.onValueChange).toHaveBeenCalledWith('Grüezi');
  });

  it('a select starts with its placeholder and offers plain choices and choices with another value', () => {
    const field = bound({ name: 'user' });
    render(
      <SelectField
        field={field}
        label="Benutzer"
        placeholder="Bitte wählen …"
        options={['Alle', { value: 'u-1', label: 'Alice Muster' }]}
      />,
    );
    const select = screen.getByLabelText('Benutzer') as HTMLSelectElement;
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ['', 'Bitte wählen …'],
      ['Alle', 'Alle'],
      ['u-1', 'Alice Muster'],
    ]);
    fireEvent.change(select, { target: { value: 'u-1' } });
    expect(field.onValueChange).toHaveBeenCalledWith('u-1');
  });

  it('the email and phone fields bring their label, keyboard and autofill', () => {
    render(
      <>
        <EmailField field={bound({ name: 'email' })} />
        <PhoneField field={bound({ name: 'phone' })} />
      </>,
    );
    const email = screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement;
    expect([email.type, email.autocomplete, email.inputMode]).toEqual(['email', 'email', 'email']);
    const phone = screen.getByLabelText('Telefon') as HTMLInputElement;
    expect([phone.type, phone.autocomplete, phone.placeholder]).toEqual(['tel', 'tel-national', '044 123 45 67']);
  });
});
