import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageFrame } from '../src/page-frame.tsx';

describe('PageFrame', () => {
  afterEach(cleanup);

  it('gives the page its one main heading, then its content', () => {
    render(
      <PageFrame title="Webcams bearbeiten">
        <p>Inhalt</p>
      </PageFrame>,
    );
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Webcams bearbeiten');
    expect(screen.getByRole('article').lastElementChild?.textContent).toBe('Inhalt');
  });

  it('renders a heading alone when there is no content yet', () => {
    render(<PageFrame title="Jobs" />);
    expect(screen.getByRole('article').children).toHaveLength(1);
  });
});
