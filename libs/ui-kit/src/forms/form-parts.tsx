import { type FormEvent, type ReactNode, useId } from 'react';
import './forms.css';

/** A titled card holding one form; `headingLevel` keeps the page outline right. */
export function FormCard({
  title,
  headingLevel = 2,
  children,
}: {
  title: string;
  headingLevel?: 2 | 3;
  children: ReactNode;
}) {
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();
  return (
    <section className="form-card" aria-labelledby={headingId}>
      <Heading id={headingId} className="form-card__title">
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** A form that validates itself (noValidate) and never reloads the page. */
export function Form({ onSubmit, children, label }: { onSubmit: () => void; children: ReactNode; label?: string }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="form" noValidate onSubmit={submit} aria-label={label}>
      {children}
    </form>
  );
}

export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form-actions">{children}</div>;
}

/** A message about the form as a whole: `error` is announced at once, `success` and `info` politely. */
export function Notice({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
