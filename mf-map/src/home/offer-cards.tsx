import { QUALITY_WIDTHS } from '@lakecams/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatChf, lowestOwnSitePrice, PRICES, QUALITY_LABELS } from '../pricing/prices.ts';

function OfferCard({
  title,
  price,
  unit,
  children,
}: {
  title: string;
  price: string;
  unit?: string;
  children: ReactNode;
}) {
  return (
    <article className="offer-card">
      <h3>{title}</h3>
      <p className="offer-card__price">
        {price}
        {unit && <span> {unit}</span>}
      </p>
      {children}
    </article>
  );
}

/** The offers: donation, Free (registration), Service One (contact, or who uses it; docs/product.md §4.1). */
export function OfferCards() {
  return (
    <section className="offers" aria-labelledby="offers-heading">
      <h2 id="offers-heading">Angebote</h2>
      <div className="offers__grid">
        <OfferCard title="Spende" price="Betrag frei wählbar">
          <p>Gefallen Ihnen die Bilder vom See? Ihre Spende fliesst in</p>
          <ul className="offer-card__list">
            <li>Strom, Server und Wartung der Kameras</li>
            <li>neue Kamerastandorte rund um den See</li>
          </ul>
          <p className="offer-card__actions">
            <Link to="/contact" className="offer-card__action">
              Spenden
            </Link>
          </p>
        </OfferCard>
        <OfferCard title="Free" price={formatChf(0)}>
          <p>Mit einem kostenlosen Konto erhalten Sie</p>
          <ul className="offer-card__list">
            <li>
              mindestens {QUALITY_LABELS.LOW} ({QUALITY_WIDTHS.LOW} px) bei jeder Kamera, bei ausgewählten Kameras mehr
            </li>
            <li>Ihr eigenes Profil</li>
            <li>Zugang zu Zusatzfunktionen mit einem Funktionscode</li>
          </ul>
          <p className="offer-card__actions">
            <Link to="/register" className="offer-card__action">
              Registrieren
            </Link>
          </p>
        </OfferCard>
        <OfferCard title="Service One" price={`ab ${formatChf(lowestOwnSitePrice())}`} unit="pro Kamera und Monat">
          <ul className="offer-card__list">
            <li>Ihre Werbung auf einem Kamerabild: {formatChf(PRICES.advertisingPerCameraMonth)}</li>
            <li>
              Kamerabild auf Ihrer Website: {formatChf(PRICES.ownSitePerCameraMonth.LOW)} bis{' '}
              {formatChf(PRICES.ownSitePerCameraMonth.FULL)}
            </li>
            <li>Werbung gestalten: {formatChf(PRICES.advertisingDesignPerHour)} pro Stunde</li>
          </ul>
          <p className="offer-card__actions">
            <Link to="/contact" className="offer-card__action">
              Kontakt
            </Link>
            <Link to="/referes-list" className="offer-card__action offer-card__action--secondary">
              Wer nutzt den Service?
            </Link>
          </p>
        </OfferCard>
      </div>
    </section>
  );
}
