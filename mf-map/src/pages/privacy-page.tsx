import { PageFrame } from '@lakecams/ui-kit';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The operator is fictitious: this portal is a demonstration. */
const OPERATOR = {
  company: 'Seecam Zürichsee Muster GmbH',
  street: 'Musterstrasse 12',
  town: '8640 Rapperswil SG',
  country: 'Schweiz',
  email: 'webcams@seecam.example',
  representatives: ['Erika Muster, Geschäftsführerin', 'Hans Beispiel, Leiter Technik'],
  register: 'Handelsregisteramt des Kantons St. Gallen',
  uid: 'CHE-000.000.000 (Beispielnummer)',
} as const;

interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** The legal notice, section by section in a fixed order; it names the analytics and map services used. */
export const PRIVACY_SECTIONS: readonly LegalSection[] = [
  {
    id: 'kontaktadresse',
    title: 'Kontaktadresse',
    body: (
      <address>
        {OPERATOR.company}
        <br />
        {OPERATOR.street}
        <br />
        {OPERATOR.town}
        <br />
        {OPERATOR.country}
        <br />
        E-Mail: <a href={`mailto:${OPERATOR.email}`}>{OPERATOR.email}</a>
      </address>
    ),
  },
  {
    id: 'vertretungsberechtigte-personen',
    title: 'Vertretungsberechtigte Personen',
    body: (
      <ul>
        {OPERATOR.representatives.map((person) => (
          <li key={person}>{person}</li>
        ))}
      </ul>
    ),
  },
  {
    id: 'handelsregistereintrag',
    title: 'Handelsregistereintrag',
    body: (
      <dl className="legal-facts">
        <dt>Eingetragener Firmenname</dt>
        <dd>{OPERATOR.company}</dd>
        <dt>Handelsregisteramt</dt>
        <dd>{OPERATOR.register}</dd>
        <dt>Unternehmens-Nummer (UID)</dt>
        <dd>{OPERATOR.uid}</dd>
      </dl>
    ),
  },
  {
    id: 'haftungsausschluss',
    title: 'Haftungsausschluss',
    body: (
      <>
        <p>
          Wir prüfen die Inhalte dieser Website sorgfältig, übernehmen aber keine Gewähr für ihre Richtigkeit,
          Vollständigkeit, Aktualität und Zuverlässigkeit. Die Kamerabilder werden automatisch erstellt und können
          verspätet, unvollständig oder zeitweise nicht verfügbar sein.
        </p>
        <p>
          Haftungsansprüche gegen uns wegen Schäden materieller oder immaterieller Art, die aus dem Zugriff auf die
          veröffentlichten Informationen, ihrer Nutzung oder Nichtnutzung, aus Missbrauch der Verbindung oder aus
          technischen Störungen entstehen, sind ausgeschlossen.
        </p>
        <p>
          Alle Angebote sind unverbindlich. Wir behalten uns vor, Teile der Seiten oder das gesamte Angebot ohne
          Ankündigung zu ändern, zu ergänzen, zu löschen oder zeitweise oder endgültig einzustellen.
        </p>
      </>
    ),
  },
  {
    id: 'haftung-fuer-links',
    title: 'Haftung für Links',
    body: (
      <p>
        Verweise und Links auf Websites Dritter, etwa in der Liste der Partnerseiten, liegen ausserhalb unseres
        Verantwortungsbereichs. Wir lehnen jede Verantwortung für solche Websites ab. Der Zugriff auf sie und ihre
        Nutzung erfolgen auf eigene Gefahr der Nutzerin oder des Nutzers.
      </p>
    ),
  },
  {
    id: 'urheberrechte',
    title: 'Urheberrechte',
    body: (
      <p>
        Die Urheber- und alle anderen Rechte an Inhalten, Kamerabildern, Fotos und anderen Dateien auf dieser Website
        gehören ausschliesslich dem Betreiber oder den ausdrücklich genannten Rechteinhabern. Für die Wiedergabe
        jeglicher Elemente, insbesondere der Kamerabilder auf anderen Websites, ist vorgängig die schriftliche
        Zustimmung der Rechteinhaber einzuholen (siehe <Link to="/referes-list">Preise und Referenzen</Link>).
      </p>
    ),
  },
  {
    id: 'datenschutz',
    title: 'Datenschutz',
    body: (
      <>
        <p>
          Gestützt auf Artikel 13 der Schweizerischen Bundesverfassung und die eidgenössischen Bestimmungen zum
          Datenschutz hat jede Person Anspruch auf Schutz ihrer Privatsphäre sowie auf Schutz vor Missbrauch ihrer
          persönlichen Daten. Wir halten diese Bestimmungen ein. Persönliche Daten werden streng vertraulich behandelt
          und weder an Dritte verkauft noch weitergegeben.
        </p>
        <p>
          In enger Zusammenarbeit mit unseren Hosting-Providern bemühen wir uns, die Datenbanken so gut wie möglich vor
          fremden Zugriffen, Verlusten, Missbrauch oder Fälschung zu schützen.
        </p>
        <p>
          Beim Zugriff auf unsere Website werden folgende Daten in Logdateien gespeichert: IP-Adresse, Datum, Uhrzeit,
          Browser-Anfrage und allgemein übertragene Informationen zum Betriebssystem beziehungsweise zum Browser. Diese
          Nutzungsdaten bilden die Basis für statistische, anonyme Auswertungen, so dass Trends erkennbar sind, mit
          denen wir unser Angebot verbessern können.
        </p>
        <p>
          Wenn Sie sich registrieren oder uns über das Kontaktformular schreiben, speichern wir die Angaben, die Sie
          dabei machen, und verwenden sie nur für Ihr Konto beziehungsweise Ihre Anfrage.
        </p>
      </>
    ),
  },
  {
    id: 'web-analytics',
    title: 'Datenschutzerklärung für die Nutzung von Web-Analytics',
    body: (
      <>
        <p>
          Diese Website nutzt einen Web-Analysedienst. Er verwendet Cookies, also Textdateien, die auf Ihrem Computer
          gespeichert werden und eine Analyse der Benutzung der Website ermöglichen. Die so erzeugten Informationen über
          Ihre Benutzung dieser Website werden gekürzt, so dass die IP-Adresse keiner Person zugeordnet werden kann.
        </p>
        <p>
          Der Dienst wertet Ihre Nutzung der Website aus, um Berichte über die Websiteaktivitäten zu erstellen. Sie
          können die Speicherung der Cookies durch eine entsprechende Einstellung Ihres Browsers verhindern; dann stehen
          Ihnen womöglich nicht alle Funktionen dieser Website vollumfänglich zur Verfügung.
        </p>
      </>
    ),
  },
  {
    id: 'kartenbibliothek-leaflet',
    title: 'Datenschutzerklärung für die Nutzung der Kartenbibliothek (Leaflet)',
    body: (
      <>
        <p>
          Für die interaktive Karte auf der Startseite verwenden wir die quelloffene Kartenbibliothek Leaflet. Sie läuft
          vollständig in Ihrem Browser.
        </p>
        <p>
          Bei der Nutzung der Karte werden keine personenbezogenen Daten an einen Server übermittelt. Geladen werden nur
          die Kartenkacheln, also Bildausschnitte des Satellitenbilds, ohne Cookies und ohne Angaben zu Ihrer Person.
        </p>
      </>
    ),
  },
  {
    id: 'quelle',
    title: 'Quelle',
    body: (
      <p>
        Dieser Text wurde im April 2018 mit einem Generator für Impressum und Datenschutzerklärung nach Schweizer Recht
        erstellt und für dieses Portal ergänzt.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <PageFrame title="Datenschutz">
      <p className="lead">Impressum, Haftungsausschluss und Datenschutzerklärung. Stand: April 2018.</p>
      <nav className="legal-contents" aria-label="Inhalt">
        <ol>
          {PRIVACY_SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="legal-text">
        {PRIVACY_SECTIONS.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
            <h2 id={`${section.id}-heading`}>{section.title}</h2>
            {section.body}
          </section>
        ))}
      </div>
    </PageFrame>
  );
}
