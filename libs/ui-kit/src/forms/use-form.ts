import { useCallback, useState } from 'react';

export type FormValues<F extends string> = Record<F, string>;
export type FormErrors<F extends string> = Partial<Record<F, string>>;

/** What a field component needs from its form. */
export interface BoundField {
  name: string;
  value: string;
  onValueChange(value: string): void;
  onBlur(): void;
  /** The message to show now: null until the field was left once or a submit was attempted. */
  error: string | null;
}

export interface FormState<F extends string> {
  values: FormValues<F>;
  /** Every current message, shown or not. */
  errors: FormErrors<F>;
  isValid: boolean;
  field(name: F): BoundField;
  setValue(name: F, value: string): void;
  /** Marks a submit attempt so every message shows; true when the form may be sent. */
  attemptSubmit(): boolean;
  /** Back to the last baseline with no message shown; given values become the new baseline (e.g. after saving). */
  reset(values?: FormValues<F>): void;
}

/**
 * Form state with validation on every change. Messages appear once a field was touched or a
 * submit was attempted, so an empty form does not greet the visitor with errors.
 */
export function useForm<F extends string>(
  initial: FormValues<F>,
  validate: (values: FormValues<F>) => FormErrors<F>,
): FormState<F> {
  const [baseline, setBaseline] = useState(initial);
  const [values, setValues] = useState<FormValues<F>>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const errors = validate(values);
  const isValid = Object.values(errors).every((message) => !message);

  const setValue = useCallback((name: F, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
  }, []);

  return {
    values,
    errors,
    isValid,
    setValue,
    field: (name) => ({
      name,
      value: values[name],
      onValueChange: (value) => setValue(name, value),
      onBlur: () => setTouched((current) => (current.has(name) ? current : new Set(current).add(name))),
      error: submitted || touched.has(name) ? (errors[name] ?? null) : null,
    }),
    attemptSubmit() {
      setSubmitted(true);
      return isValid;
    },
    reset(next) {
      if (next) setBaseline(next);
      setValues(next ?? baseline);
      setTouched(new Set());
      setSubmitted(false);
    },
  };
}
