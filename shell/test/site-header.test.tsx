import { SessionContext } from '@lakecams/session';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteHeader } from '../src/chrome/site-header.tsx';

async function renderHeader(roles: string[] = []) {
  const { session } = await createTestSession({ user: testUser(), roles });
  render(
    <SessionContext.Provider value={session}>
      <SiteHeader currentPath="/" />
    </SessionContext.Provider>,
  );
}

describe('site header', () => {
  afterEach(cleanup);

  it('Escape closes the phone menu and gives focus back to its toggle', async () => {
    await renderHeader();
    const toggle = screen.getByRole('button', { name: 'Menü' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('folds the administration pages into "Verwaltung", which Escape and a click elsewhere close', async () => {
    await renderHeader(['Admin']);
    const nav = await screen.findByRole('navigation', { name: 'Hauptmenü' });
    const group = await within(nav).findByRole('button', { name: 'Verwaltung' });
    expect(within(nav).queryByRole('link', { name: 'Jobs' })).toBeNull();
    fireEvent.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(
      ['Benutzer vertreten', 'Jobs', 'Webcams bearbeiten', 'Referer bearbeiten', 'Codes verwalten'].map((name) =>
        within(nav).getByRole('link', { name }).getAttribute('href'),
      ),
    ).toEqual(['/impersonate', '/jobs', '/edit/webcams', '/edit/referers', '/edit/codes']);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(group.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(group);

    fireEvent.click(group);
    fireEvent.click(document.body);
    expect(group.getAttribute('aria-expanded')).toBe('false');
  });
});
