/** A saved item replaces the one with the same id, or is appended when it is new. */
export function replaceOrAppend<T extends { id: number }>(list: readonly T[], saved: T): T[] {
  return list.some((item) => item.id === saved.id)
    ? list.map((item) => (item.id === saved.id ? saved : item))
    : [...list, saved];
}

export function removeById<T extends { id: number }>(list: readonly T[], id: number): T[] {
  return list.filter((item) => item.id !== id);
}
