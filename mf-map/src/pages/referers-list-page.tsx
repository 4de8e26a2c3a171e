import { QUALITY_WIDTHS } from '@lakecams/contracts';
import { PageFrame, usePageAnswer } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { PriceList } from '../pricing/price-list.tsx';
import { QUALITY_LABELS } from '../pricing/prices.ts';
import {
  fetchPartnerPages,
  PAGES_USING_SERVICE_PATH,
  type PartnerPage,
  partnerPages,
} from '../pricing/pages-using-service.ts';

type PartnerPages = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; pages: PartnerPage[] };

function usePartnerPages(attempt: number): PartnerPages {
  // The list comes with the page (rendered so on the server); asked for anew only on a retry.
  const fromPage = usePageAnswer<unknown>(PAGES_USING_SERVICE_PATH);
  const [state, setState] = useState<PartnerPages>(() =>
    Array.isArray(fromPage) ? { status: 'ready', pages: partnerPages(fromPage) } : { status: 'loading' },
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again.
  useEffect(() => {
    if (attempt === 0 && Array.isArray(fromPage)) return;
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
  const { hash } = useLocation();
  // A link to a section (the quality note's "#premium") lands on it once the page is there.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  return (
    <PageFrame title="Preise und Referenzen">
      <p className="lead">
        Zeigen Sie unsere Kamerabilder auf Ihrer Website oder werben Sie auf einem Kamerabild am Zürichsee.{' '}
        <Link to="/contact">Schreiben Sie uns</Link> – wir beraten Sie gern.
      </p>
      <PriceList />
      <VisitorQualitySection />
      <PartnerPagesSection />
    </PageFrame>
  );
}

/** What a visitor sees without an account, with one, and with Premium, and how Premium is had. */
function VisitorQualitySection() {
  return (
    <section className="visitor-quality" id="premium" aria-labelledby="visitor-quality-heading">
      <h2 id="visitor-quality-heading">Bildqualität für Besucher und Premium</h2>
      <ul className="visitor-quality__list">
        <li>
          <strong>Ohne Konto:</strong> {QUALITY_LABELS.POOR} ({QUALITY_WIDTHS.POOR} px breit).
        </li>
        <li>
          <strong>Mit kostenlosem Konto:</strong> mindestens {QUALITY_LABELS.LOW} ({QUALITY_WIDTHS.LOW} px) bei jeder
          Kamera, bei ausgewählten Kameras mehr. <Link to="/register">Registrieren</Link>
        </li>
        <li>
          <strong>Premium:</strong> mindestens {QUALITY_LABELS.MEDIUM} ({QUALITY_WIDTHS.MEDIUM} px) bei jeder Kamera.
        </li>
      </ul>
      <p>
        Premium schalten Sie mit einem Funktionscode frei. Einen Code erhalten Sie von uns auf Anfrage, zum Beispiel als
        Dank für eine Spende: <Link to="/contact">Kontakt</Link>. Eingelöst wird er unter{' '}
        <Link to="/user">Mein Profil</Link>, «Code einlösen»; die Bilder sind danach sofort schärfer.
      </p>
    </section>
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
