import type { ReactNode } from 'react';
import { LoadStatus } from '../loading/load-status.tsx';
import type { Loaded } from '../loading/use-loaded.ts';

/** An admin list: heading, add and refresh, the load state, then the table. */
export function TableSection({
  id,
  title,
  addLabel,
  onAdd,
  loaded,
  loadingText,
  children,
}: {
  id: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  loaded: Loaded<unknown>;
  loadingText: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="admin-section">
      <div className="section-header">
        <h2 id={id}>{title}</h2>
        <div className="toolbar">
          <button type="button" onClick={onAdd}>
            {addLabel}
          </button>
          <button type="button" className="button--secondary" onClick={loaded.reload} disabled={loaded.loading}>
            Aktualisieren
          </button>
        </div>
      </div>
      <LoadStatus loaded={loaded} loadingText={loadingText} />
      {children}
    </section>
  );
}
