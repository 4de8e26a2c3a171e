import { PageFrame } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PriceList } from '../pricing/price-list.tsx';
import { fetchPartnerPages, type PartnerPage } from '../pricing/pages-using-service.ts';

type PartnerPages = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; pages: PartnerPage[] };

function usePartnerPages(attempt: number): PartnerPages {
  const [state, setState] = useState<PartnerPages>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again.
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    fetchPartnerPages(abort.signal).then(
      (pages) => setState({ status: 'ready', pages }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        console.error('Loading the pages using the service failed', error);
        setState({ status: 'failed' });
      },
    );
    return () => abort.abort();
  }, [attempt]);
  return state;
}

export function ReferersListPage() {
  return (
    <PageFrame title="Preise und Referenzen">
      <p className="lead">
        Zeigen Sie unsere Kamerabilder auf Ihrer Website oder werben Sie auf einem Kamerabild am Zürichsee.{' '}
        <Link to="/contact">Schreiben Sie uns</Link> – wir beraten Sie gern.
      </p>
      <PriceList />
      <PartnerPagesSection />
    </PageFrame>
  );
}

function PartnerPagesSection() {
  const [attempt, setAttempt] = useState(0);
  const pages = usePartnerPages(attempt);
  return (
    <section className="partner-pages" aria-labelledby="partner-pages-heading">
      <h2 id="partner-pages-heading">Seiten, die unseren Service nutzen</h2>
      {pages.status === 'loading' && (
        <p className="status-note" role="status">
          Wird geladen …
        </p>
      )}
      {pages.status === 'failed' && (
        <div className="status-note status-note--error" role="alert">
          <p>Die Liste konnte nicht geladen werden.</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Erneut versuchen
          </button>
        </div>
      )}
      {pages.status === 'ready' &&
        (pages.pages.length === 0 ? (
          <p className="status-note">
            Noch zeigt keine Partnerseite unsere Bilder. Ihre könnte die erste sein:{' '}
            <Link to="/contact">Kontakt aufnehmen</Link>.
          </p>
        ) : (
          <ul className="partner-pages__list">
            {pages.pages.map((page) => (
              <li key={page.href}>
                <a href={page.href} rel="noopener">
                  {page.label}
                </a>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
