/** The captcha as a button: the widget's proof of work is the browser test's business. */
export function CaptchaField({
  action,
  onChange,
  solveNow = false,
}: {
  action: string;
  onChange(payload: string | null): void;
  solveNow?: boolean;
}) {
  return (
    <button type="button" data-solve-now={solveNow} onClick={() => onChange(`solved-${action}`)}>
      Captcha lösen
    </button>
  );
}
