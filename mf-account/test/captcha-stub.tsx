/** The captcha as a button: the widget's proof of work is the browser test's business. */
export function CaptchaField({ action, onChange }: { action: string; onChange(payload: string | null): void }) {
  return (
    <button type="button" onClick={() => onChange(`solved-${action}`)}>
      Captcha lösen
    </button>
  );
}
