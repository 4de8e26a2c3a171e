import { QUALITIES, type Webcam } from '@lakecams/contracts';
import { Form, FormActions, ModalDialog, SelectField, TextField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import type { RefererBooking } from '../api/admin-api.ts';
import { removeById, replaceOrAppend } from '../lists/list-updates.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { ActionFailure, SaveOrCancel, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import {
  type BookingFormValues,
  bookingFormValues,
  bookingToSave,
  dayOf,
  newBooking,
  validateBooking,
} from './bookings.ts';

/** `2026-11-22` → `22.11.2026` (de-CH). */
export function swissDay(day: string): string {
  const [yyyy, mm, dd] = dayOf(day).split('-');
  return `${dd}.${mm}.${yyyy}`;
}

const bookingLabel = (booking: RefererBooking) =>
  `${swissDay(booking.start)} – ${swissDay(booking.end)}, ${booking.quality}, ${booking.refererUserText ?? 'kein Referer'}`;

/** The camera referers dialog: the camera's bookings by referer users (pages), per day range and quality. */
export function CameraReferersDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const bookings = useLoaded(() => api.bookings(webcam.id), 'Die Buchungen konnten nicht geladen werden.', [
    api,
    webcam.id,
  ]);
  const refererUsers = useLoaded(() => api.refererUsers(), 'Die Referer konnten nicht geladen werden.', [api]);
  const [editing, setEditing] = useState<RefererBooking | null>(null);
  const removal = useAction();

  async function remove(booking: RefererBooking) {
    const removed = await removal.run(
      () => api.removeBooking(webcam.id, booking.id),
      'Die Buchung konnte nicht entfernt werden.',
    );
    if (!removed) return;
    bookings.update((list) => removeById(list, booking.id));
    if (editing?.id === booking.id) setEditing(null);
  }

  return (
    <ModalDialog title={`Referer-Buchungen für ${webcam.name}`} onClose={onClose} wide>
      <LoadStatus loaded={bookings} loadingText="Buchungen werden geladen …" />
      {bookings.data?.length === 0 && <p className="muted">Diese Webcam hat noch keine Buchungen.</p>}
      {bookings.data && bookings.data.length > 0 && (
        <ul className="item-list" aria-label="Buchungen">
          {bookings.data.map((booking) => (
            <li key={booking.id} className="item-list__item">
              <span>{bookingLabel(booking)}</span>
              <span className="item-list__actions">
                <button
                  type="button"
                  className="button--secondary button--small"
                  aria-label={`Buchung ${bookingLabel(booking)} bearbeiten`}
                  onClick={() => setEditing(booking)}
                >
                  Bearbeiten
                </button>
                <button
                  type="button"
                  className="button--secondary button--small"
                  aria-label={`Buchung ${bookingLabel(booking)} entfernen`}
                  onClick={() => void remove(booking)}
                >
                  Entfernen
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <ActionFailure action={removal} />
      {editing ? (
        <BookingForm
          // A fresh form for each booking edited.
          key={editing.id}
          booking={editing}
          refererChoices={(refererUsers.data ?? []).map((referer) => ({
            value: String(referer.id),
            label: `${referer.userEmail} – ${referer.url}`,
          }))}
          onSaved={(saved) => {
            bookings.update((list) => replaceOrAppend(list, saved));
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <FormActions>
          <button type="button" onClick={() => setEditing(newBooking(webcam.id))}>
            Buchung hinzufügen
          </button>
          <button type="button" className="button--secondary" onClick={onClose}>
            Schliessen
          </button>
        </FormActions>
      )}
    </ModalDialog>
  );
}

function BookingForm({
  booking,
  refererChoices,
  onSaved,
  onCancel,
}: {
  booking: RefererBooking;
  refererChoices: { value: string; label: string }[];
  onSaved: (saved: RefererBooking) => void;
  onCancel: () => void;
}) {
  const api = useAdminApi();
  const form = useForm<keyof BookingFormValues>(bookingFormValues(booking), validateBooking);
  const save = useAction();

  async function submit() {
    if (!form.attemptSubmit()) return;
    const toSave = bookingToSave(booking, form.values);
    await save.run(
      async () => onSaved(await api.saveBooking(booking.webcamId, toSave)),
      'Die Buchung konnte nicht gespeichert werden.',
    );
  }

  return (
    <section className="dialog-section" aria-label={booking.id ? 'Buchung bearbeiten' : 'Neue Buchung'}>
      <h3 className="dialog-section-title">{booking.id ? 'Buchung bearbeiten' : 'Neue Buchung'}</h3>
      <Form onSubmit={() => void submit()} label="Buchung">
        <div className="form-row">
          <TextField field={form.field('start')} label="Von" type="date" />
          <TextField field={form.field('end')} label="Bis" type="date" />
        </div>
        <div className="form-row">
          <SelectField field={form.field('quality')} label="Qualität" placeholder="Bitte wählen" options={QUALITIES} />
          <SelectField
            field={form.field('refererUserId')}
            label="Referer"
            placeholder="Kein Referer"
            options={refererChoices}
          />
        </div>
        <SaveOrCancel action={save} saveLabel="Buchung speichern" onCancel={onCancel} />
      </Form>
    </section>
  );
}
