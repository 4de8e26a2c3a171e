import { SessionContext, type Session } from '@lakecams/session';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { AccountRoutes } from '../src/account-routes.tsx';

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

export function renderAccount(path: string, session: Session) {
  return render(
    <SessionContext.Provider value={session}>
      <MemoryRouter initialEntries={[path]}>
        <AccountRoutes />
        <LocationProbe />
      </MemoryRouter>
    </SessionContext.Provider>,
  );
}

export const currentLocation = () => screen.getByTestId('location').textContent;

/** Types into the field and leaves it, as a visitor does. */
export function fill(label: string | RegExp, value: string) {
  const field = screen.getByLabelText(label);
  fireEvent.change(field, { target: { value } });
  fireEvent.blur(field);
}

/** The message shown under a field, read the way a screen reader does (aria-describedby). */
export function messageOf(label: string | RegExp): string | null {
  const field = screen.getByLabelText(label);
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('form-field__error'));
  return error?.textContent ?? null;
}
