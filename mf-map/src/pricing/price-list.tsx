import { PRICES, QUALITY_LABELS, formatChf } from './prices.ts';

const OWN_SITE_QUALITIES = ['FULL', 'HIGH', 'MEDIUM', 'LOW'] as const;

/** The price information, as on the referes-list page. */
export function PriceList({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4';
  return (
    <section className="price-list" aria-labelledby="price-list-heading">
      <Heading id="price-list-heading">Preise</Heading>
      <div className="price-list__grid">
        <article className="price-card">
          <Sub>Werbung auf einem Kamerabild</Sub>
          <p className="price-card__amount">
            {formatChf(PRICES.advertisingPerCameraMonth)} <span>pro Kamera und Monat</span>
          </p>
          <ul>
            <li>Ihre Werbung erscheint in voller Qualität auf dem Kamerabild dieser Website.</li>
            <li>Höchstens {PRICES.maxAdvertisementsPerCamera} Werbungen pro Kamera.</li>
            <li>Sind N Werbungen gebucht, erscheint jede auf jedem N-ten Bild.</li>
          </ul>
        </article>
        <article className="price-card">
          <Sub>Kamerabild auf Ihrer Website</Sub>
          <table className="price-table">
            <caption>Pro Kamera und Monat</caption>
            <tbody>
              {OWN_SITE_QUALITIES.map((quality) => (
                <tr key={quality}>
                  <th scope="row">{QUALITY_LABELS[quality]}</th>
                  <td>{formatChf(PRICES.ownSitePerCameraMonth[quality])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </article>
        <article className="price-card">
          <Sub>Hilfe beim Erstellen von Werbung</Sub>
          <p className="price-card__amount">
            {formatChf(PRICES.advertisingDesignPerHour)} <span>pro Stunde</span>
          </p>
          <p>Wir gestalten Ihre Werbung passend zum Kamerabild.</p>
        </article>
        <article className="price-card">
          <Sub>Spende</Sub>
          <p className="price-card__amount">Betrag frei wählbar</p>
          <p>Jede Spende hilft, die Kameras am See in Betrieb zu halten.</p>
        </article>
      </div>
    </section>
  );
}
