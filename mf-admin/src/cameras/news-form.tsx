import { Form, FormActions, FormCard, Notice, TextAreaField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { failureMessage } from '../shared/admin-api.ts';
import { LoadStatus } from '../shared/load-status.tsx';
import { useAdminApi } from '../shared/use-admin-api.ts';
import { useLoaded } from '../shared/use-loaded.ts';

/** svc-webcam's limit on the news text. */
export const NEWS_MAX_LENGTH = 1000;

const validateNews = ({ text }: { text: string }) =>
  text.length > NEWS_MAX_LENGTH ? { text: `Höchstens ${NEWS_MAX_LENGTH} Zeichen` } : {};

/** The banner text below the header (spec §1); an empty text hides the banner. */
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
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | { failure: string }>('idle');

  async function submit() {
    if (!form.attemptSubmit()) return;
    setState('saving');
    try {
      const saved = form.values.text.trim();
      await api.setNews(saved);
      form.reset({ text: saved });
      setState('saved');
    } catch (error) {
      setState({ failure: failureMessage(error, 'Die Neuigkeiten konnten nicht gespeichert werden.') });
    }
  }

  return (
    <Form onSubmit={() => void submit()} label="Neuigkeiten">
      <p className="muted">Der Text erscheint als Banner unter dem Kopf jeder Seite; ohne Text kein Banner.</p>
      <TextAreaField field={form.field('text')} label="Text des Banners" rows={3} />
      {state === 'saved' && (
        <Notice tone="success">
          <p>
            {form.values.text
              ? 'Gespeichert. Besucher sehen den neuen Text beim nächsten Seitenaufruf.'
              : 'Gespeichert. Das Banner ist ausgeblendet.'}
          </p>
        </Notice>
      )}
      {typeof state === 'object' && (
        <Notice tone="error">
          <p>{state.failure}</p>
        </Notice>
      )}
      <FormActions>
        <button type="submit" disabled={state === 'saving' || !form.isValid}>
          Neuigkeiten speichern
        </button>
        <button
          type="button"
          className="button--secondary"
          onClick={() => {
            form.reset();
            setState('idle');
          }}
        >
          Reset
        </button>
      </FormActions>
    </Form>
  );
}
