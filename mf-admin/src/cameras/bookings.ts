import { localDateParts, type Quality } from '@lakecams/contracts';
import type { RefererBooking } from '../api/admin-api.ts';

/** Today in the region's local time as `YYYY-MM-DD` (bookings are whole days there). */
export function today(now = new Date()): string {
  const { yyyy, MM, dd } = localDateParts(now);
  return `${yyyy}-${MM}-${dd}`;
}

/** `2026-11-22T13:45:00.000Z`, `2026-11-22` → `2026-11-22`; what a date field or the server gave, cut to the day. */
export function dayOf(value: string): string {
  return value.slice(0, 10);
}

/** A new booking starts and ends today, quality POOR, no referer user. */
export function newBooking(webcamId: number, now = new Date()): RefererBooking {
  const day = today(now);
  return { id: 0, start: day, end: day, webcamId, quality: 'POOR', refererUserId: null, refererUserText: null };
}

export interface BookingFormValues {
  start: string;
  end: string;
  quality: string;
  refererUserId: string;
}

export function bookingFormValues(booking: RefererBooking): BookingFormValues {
  return {
    start: dayOf(booking.start),
    end: dayOf(booking.end),
    quality: booking.quality,
    refererUserId: booking.refererUserId === null ? '' : String(booking.refererUserId),
  };
}

/** The booking as sent: dates as whole days, no user when none is chosen. */
export function bookingToSave(booking: RefererBooking, values: BookingFormValues): RefererBooking {
  return {
    ...booking,
    start: dayOf(values.start),
    end: dayOf(values.end),
    quality: values.quality as Quality,
    refererUserId: values.refererUserId ? Number(values.refererUserId) : null,
  };
}

export function validateBooking(values: BookingFormValues): Partial<Record<keyof BookingFormValues, string>> {
  const errors: Partial<Record<keyof BookingFormValues, string>> = {};
  if (!values.start) errors.start = 'Start wird benötigt';
  if (!values.end) errors.end = 'Ende wird benötigt';
  else if (values.start && dayOf(values.end) < dayOf(values.start)) errors.end = 'Das Ende liegt vor dem Start';
  if (!values.quality) errors.quality = 'Qualität wird benötigt';
  return errors;
}
