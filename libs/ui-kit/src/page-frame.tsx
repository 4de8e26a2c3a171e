import type { ReactNode } from 'react';

/** The frame every page of a remote renders: its heading, then its content. */
export function PageFrame({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <article className="page-frame">
      <h1>{title}</h1>
      {children}
    </article>
  );
}
