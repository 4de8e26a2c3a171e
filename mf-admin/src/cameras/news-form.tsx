import { NEWS_MAX_LENGTH } from '@lakecams/contracts';
import { Form, FormActions, FormCard, Notice, TextAreaField, useForm } from '@lakecams/ui-kit';
import { LoadStatus } from '../loading/load-status.tsx';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

/** svc-webcam's limit on the news text. */

const validateNews = ({ text }: { text: string }) =>
  text.length > NEWS_MAX_LENGTH ? { text: `Höchstens ${NEWS_MAX_LENGTH} Zeichen` } : {};

/** The banner text below the header; an empty text hides the banner. */
export function NewsForm() {
  const api = useAdminApi();
  const news = useLoaded(() => api.news(), 'Die Neuigkeiten konnten nicht geladen werden.', [api]);
  return (
    <FormCard title="Neuigkeiten">
      <LoadStatus loaded={news} loadingText="Neuigkeiten werden geladen …" />
      {news.data !== undefined && <NewsEditor text={news.data} />}
    </FormCard>
  );
}

function NewsEditor({ text }: { text: string }) {
  const api = useAdminApi();
  const form = useForm<'text'>({ text }, validateNews);
  const save = useAction();

  async function submit() {
    if (!form.attemptSubmit()) return;
    const text = form.values.text.trim();
    if (await save.run(() => api.setNews(text), 'Die Neuigkeiten konnten nicht gespeichert werden.')) {
      form.reset({ text });
    }
  }

  return (
    <Form onSubmit={() => void submit()} label="Neuigkeiten">
      <p className="muted">Der Text erscheint als Banner unter dem Kopf jeder Seite; ohne Text kein Banner.</p>
      <TextAreaField field={form.field('text')} label="Text des Banners" rows={3} />
      {save.done && (
        <Notice tone="success">
          <p>
            {form.values.text
              ? 'Gespeichert. Besucher sehen den neuen Text beim nächsten Seitenaufruf.'
              : 'Gespeichert. Das Banner ist ausgeblendet.'}
          </p>
        </Notice>
      )}
      <ActionFailure action={save} />
      <FormActions>
        <button type="submit" disabled={save.busy || !form.isValid}>
          Neuigkeiten speichern
        </button>
        <button
          type="button"
          className="button--secondary"
          onClick={() => {
            form.reset();
            save.reset();
          }}
        >
          Zurücksetzen
        </button>
      </FormActions>
    </Form>
  );
}
