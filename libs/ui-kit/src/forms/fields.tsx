import { type ReactNode, useCallback, useId, useRef } from 'react';
import type { BoundField } from './use-form.ts';
import './forms.css';

interface FieldFrameProps {
  field: BoundField;
  label: string;
  hint?: string | undefined;
  /** Shows "n/max" under the field (the profile's last name has one). */
  counterMax?: number | undefined;
  children: (control: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label above, control, then hint, counter and message below; wired up for screen readers. */
function FieldFrame({ field, label, hint, counterMax, children }: FieldFrameProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, field.error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={field.error ? 'form-field form-field--invalid' : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: field.error !== null })}
      {(hint || counterMax) && (
        <div className="form-field__meta">
          {hint && <span id={hintId}>{hint}</span>}
          {counterMax && (
            <span className="form-field__counter" aria-hidden="true">
              {field.value.length}/{counterMax}
            </span>
          )}
        </div>
      )}
      {field.error && (
        <p id={errorId} className="form-field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps {
  field: BoundField;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'password' | 'number' | 'date';
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal';
  /** For numbers: 'any' allows decimals (coordinates, km). */
  step?: string;
  placeholder?: string;
  hint?: string;
  counterMax?: number;
}

type FormControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A field of a page rendered on the server may be typed into before the page's code arrived: when it comes (the
 * control mounts), what the visitor typed is taken into the form instead of being lost.
 */
function useAdoptedInput(field: BoundField): (element: FormControl | null) => void {
  const adopted = useRef(false);
  const latest = useRef(field);
  latest.current = field;
  return useCallback((element: FormControl | null) => {
    if (!element || adopted.current) return;
    adopted.current = true;
    if (element.value !== latest.current.value) latest.current.onValueChange(element.value);
  }, []);
}

export function TextField({
  field,
  label,
  type = 'text',
  autoComplete,
  inputMode,
  placeholder,
  hint,
  counterMax,
  step,
}: TextFieldProps) {
  const keyboard = inputMode ?? (type === 'number' ? (step === 'any' ? 'decimal' : 'numeric') : undefined);
  const adopt = useAdoptedInput(field);
  return (
    <FieldFrame field={field} label={label} hint={hint} counterMax={counterMax}>
      {({ id, describedBy, invalid }) => (
        <input
          ref={adopt}
          id={id}
          name={field.name}
          type={type}
          value={field.value}
          autoComplete={autoComplete}
          inputMode={keyboard}
          step={step}
          placeholder={placeholder}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => field.onValueChange(event.target.value)}
          onBlur={field.onBlur}
        />
      )}
    </FieldFrame>
  );
}

export function TextAreaField({ field, label, rows = 6 }: { field: BoundField; label: string; rows?: number }) {
  const adopt = useAdoptedInput(field);
  return (
    <FieldFrame field={field} label={label}>
      {({ id, describedBy, invalid }) => (
        <textarea
          ref={adopt}
          id={id}
          name={field.name}
          rows={rows}
          value={field.value}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => field.onValueChange(event.target.value)}
          onBlur={field.onBlur}
        />
      )}
    </FieldFrame>
  );
}

/** A choice whose value differs from what the user reads (an id, an email). */
export interface Choice {
  value: string;
  label: string;
}

interface SelectFieldProps {
  field: BoundField;
  label: string;
  /** The empty first choice ("Bitte wählen", or what no choice means). */
  placeholder: string;
  options: readonly (string | Choice)[];
}

const asChoice = (option: string | Choice): Choice =>
  typeof option === 'string' ? { value: option, label: option } : option;

export function SelectField({ field, label, placeholder, options }: SelectFieldProps) {
  const adopt = useAdoptedInput(field);
  return (
    <FieldFrame field={field} label={label}>
      {({ id, describedBy, invalid }) => (
        <select
          ref={adopt}
          id={id}
          name={field.name}
          value={field.value}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => field.onValueChange(event.target.value)}
          onBlur={field.onBlur}
        >
          <option value="">{placeholder}</option>
          {options.map(asChoice).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** The email field every account form uses (label, keyboard and autofill set once). */
export function EmailField({ field }: { field: BoundField }) {
  return <TextField field={field} label="E-Mail-Adresse" type="email" autoComplete="email" inputMode="email" />;
}

/** The Swiss phone field (format 0xx xxx xx xx) every account form uses. */
export function PhoneField({ field }: { field: BoundField }) {
  return <TextField field={field} label="Telefon" type="tel" autoComplete="tel-national" placeholder="044 123 45 67" />;
}
