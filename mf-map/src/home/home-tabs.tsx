import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

export const HOME_VIEWS = [
  { id: 'karte', label: 'Karte' },
  { id: 'liste', label: 'Liste' },
] as const;
export type HomeView = (typeof HOME_VIEWS)[number]['id'];

/** The view sits in the URL (`?ansicht=liste`) so it can be linked and survives a reload (docs/product.md §4.1). */
export function useHomeView(): [HomeView, (view: HomeView) => void] {
  const [params, setParams] = useSearchParams();
  const view: HomeView = params.get('ansicht') === 'liste' ? 'liste' : 'karte';
  const select = (next: HomeView) =>
    setParams(next === 'karte' ? {} : { ansicht: next }, { replace: true, preventScrollReset: true });
  return [view, select];
}

const tabId = (view: HomeView) => `home-tab-${view}`;
const panelId = (view: HomeView) => `home-panel-${view}`;

/** WAI-ARIA tabs (arrow keys, Home, End) plus the link to all cameras beside them. */
export function HomeTabs({ panels }: { panels: Record<HomeView, ReactNode> }) {
  const [active, select] = useHomeView();
  const tabs = useRef<Partial<Record<HomeView, HTMLButtonElement | null>>>({});

  const onKeyDown = (event: KeyboardEvent) => {
    const index = HOME_VIEWS.findIndex((view) => view.id === active);
    const last = HOME_VIEWS.length - 1;
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = HOME_VIEWS[(target + HOME_VIEWS.length) % HOME_VIEWS.length]?.id ?? 'karte';
    select(next);
    tabs.current[next]?.focus();
  };

  return (
    <div className="home-tabs">
      <div className="home-tabs__bar">
        <div role="tablist" aria-label="Ansicht der Webcams" className="home-tabs__list">
          {HOME_VIEWS.map((view) => (
            <button
              key={view.id}
              ref={(element) => {
                tabs.current[view.id] = element;
              }}
              type="button"
              role="tab"
              id={tabId(view.id)}
              aria-selected={view.id === active}
              aria-controls={panelId(view.id)}
              tabIndex={view.id === active ? 0 : -1}
              className="home-tabs__tab"
              onClick={() => select(view.id)}
              onKeyDown={onKeyDown}
            >
              {view.label}
            </button>
          ))}
        </div>
        <Link to="/webcams" className="home-tabs__link">
          Alle Webcams
        </Link>
      </div>
      {HOME_VIEWS.map((view) => (
        <div
          key={view.id}
          role="tabpanel"
          id={panelId(view.id)}
          aria-labelledby={tabId(view.id)}
          hidden={view.id !== active}
          className={`home-tabs__panel home-tabs__panel--${view.id}`}
        >
          {/* Only the shown panel is rendered: the map is not built behind the list. */}
          {view.id === active && panels[view.id]}
        </div>
      ))}
    </div>
  );
}
