import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type FormErrors, type FormValues, useForm } from '../src/forms/use-form.ts';

type Field = 'name' | 'email';

const validate = (values: FormValues<Field>): FormErrors<Field> => ({
  ...(values.name ? {} : { name: 'Bitte geben Sie Ihren Namen an.' }),
  ...(values.email.includes('@') ? {} : { email: 'Das ist keine E-Mail-Adresse.' }),
});

const renderForm = (initial: FormValues<Field> = { name: '', email: '' }) =>
  renderHook(() => useForm<Field>(initial, validate));

describe('useForm', () => {
  it('knows every message from the start but shows none before a field was left', () => {
    const { result } = renderForm();
    expect(result.current.isValid).toBe(false);
    expect(Object.keys(result.current.errors)).toEqual(['name', 'email']);
    expect(result.current.field('name').error).toBeNull();
    expect(result.current.field('email').error).toBeNull();
  });

  it("shows a field's message once it was left, and only that field's", () => {
    const { result } = renderForm();
    act(() => result.current.field('name').onBlur());
    expect(result.current.field('name').error).toBe('Bitte geben Sie Ihren Namen an.');
    expect(result.current.field('email').error).toBeNull();
  });

  it('validates on every change', () => {
    const { result } = renderForm();
    act(() => result.current.field('name').onBlur());
    act(() => result.current.field('name').onValueChange('Alice'));
    expect(result.current.values.name).toBe('Alice');
    expect(result.current.field('name').error).toBeNull();
    act(() => result.current.setValue('email', 'alice@example.ch'));
    expect(result.current.isValid).toBe(true);
  });

  it('shows every message after a submit attempt, and says whether the form may be sent', () => {
    const { result } = renderForm();
    let allowed = true;
    act(() => {
      allowed = result.current.attemptSubmit();
    });
    expect(allowed).toBe(false);
    expect(result.current.field('email').error).toBe('Das ist keine E-Mail-Adresse.');
    act(() => {
      result.current.setValue('name', 'Alice');
      result.current.setValue('email', 'alice@example.ch');
    });
    act(() => {
      allowed = result.current.attemptSubmit();
    });
    expect(allowed).toBe(true);
  });

  it('goes back to its baseline without messages, or takes the given values as the new one', () => {
    const { result } = renderForm({ name: 'Alice', email: 'alice@example.ch' });
    act(() => result.current.setValue('email', 'kaputt'));
    act(() => void result.current.attemptSubmit());
    act(() => result.current.reset());
    expect(result.current.values).toEqual({ name: 'Alice', email: 'alice@example.ch' });
    expect(result.current.field('email').error).toBeNull();

    act(() => result.current.reset({ name: 'Bob', email: 'bob@example.ch' }));
    act(() => result.current.setValue('name', 'Robert'));
    act(() => result.current.reset());
    expect(result.current.values).toEqual({ name: 'Bob', email: 'bob@example.ch' });
  });

  it('binds a field by its name', () => {
    const { result } = renderForm({ name: 'Alice', email: '' });
    expect(result.current.field('name')).toMatchObject({ name: 'name', value: 'Alice' });
  });
});
