import type { BoundField } from '@lakecams/ui-kit';
import { type ReactNode, useId } from 'react';

/**
 * Fields the ui-kit does not offer yet: choices whose value differs from their label (ids, emails),
 * numbers and days. Same markup and classes as the ui-kit fields, so they look and read alike.
 */
function FieldFrame({
  field,
  label,
  hint,
  children,
}: {
  field: BoundField;
  label: string;
  hint?: string | undefined;
  children: (control: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, field.error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={field.error ? 'form-field form-field--invalid' : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy: describedBy || undefined, invalid: field.error !== null })}
      {hint && (
        <div className="form-field__meta">
          <span id={`${id}-hint`}>{hint}</span>
        </div>
      )}
      {field.error && (
        <p id={`${id}-error`} className="form-field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
}

export function ChoiceField({
  field,
  label,
  choices,
  placeholder,
  hint,
}: {
  field: BoundField;
  label: string;
  choices: readonly Choice[];
  /** An empty first choice, e.g. "Bitte wählen" or "Kein Referer". */
  placeholder?: string;
  hint?: string;
}) {
  return (
    <FieldFrame field={field} label={label} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={field.name}
          value={field.value}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => field.onValueChange(event.target.value)}
          onBlur={field.onBlur}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export function InputField({
  field,
  label,
  type,
  hint,
  step,
}: {
  field: BoundField;
  label: string;
  type: 'number' | 'date';
  hint?: string;
  /** For numbers: 'any' allows decimals (coordinates, km). */
  step?: string;
}) {
  return (
    <FieldFrame field={field} label={label} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={field.name}
          type={type}
          step={step}
          inputMode={type === 'number' ? (step === 'any' ? 'decimal' : 'numeric') : undefined}
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
