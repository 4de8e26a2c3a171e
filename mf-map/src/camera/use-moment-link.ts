import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  COMPARE_PARAM,
  type CompareLayout,
  compareLayoutOf,
  type LoadedHistory,
  MOMENT_PARAM,
  momentParam,
  momentRequest,
  momentStep,
  VERSUS_PARAM,
  VIEWER_PARAM,
} from './moment-link.ts';

/**
 * The camera page's picture follows the URL (`?t=`, `?zoom`, `?compare` with `?vs`): on arrival, back and forward. Moving through
 * a day replaces the URL's entry, so the slider does not flood the history; picking another day and opening
 * the viewer add one, so back returns to the day before and closes the viewer, leaving `t` as it was before.
 */
export function useMomentLink(history: LoadedHistory | null, dayLoading: boolean, selectDay: (day: string) => void) {
  const [params, setParams] = useSearchParams();
  const t = params.get(MOMENT_PARAM);
  const step = history ? momentStep(momentRequest(t), history) : null;
  const moment = step?.step === 'show' ? step.name : null;
  const viewerOpen = params.has(VIEWER_PARAM);
  // The page behind the viewer keeps the picture it showed when the viewer opened. Were it to follow the
  // viewer's steps, a back right after one would find its move to that picture still under way, and that
  // move, landing after back, would put the viewer's picture into the entry before the viewer.
  const behindViewer = useRef(moment);
  useEffect(() => {
    if (!viewerOpen) behindViewer.current = moment;
  });
  const [note, setNote] = useState<string | null>(null);
  /** A day the visitor picked: its first picture gets a history entry of its own once it is loaded. */
  const pickedDay = useRef<string | null>(null);
  /** A day this page loaded for the URL, so that a day that fails to load is not asked for again and again. */
  const loadedFor = useRef<string | null>(null);

  const setParam = useCallback(
    (name: string, value: string | null, push: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === null) next.delete(name);
          else next.set(name, value);
          return next;
        },
        { replace: !push },
      ),
    [setParams],
  );

  const setParamsTo = useCallback(
    (values: Readonly<Record<string, string | null>>, push: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(values)) {
            if (value === null) next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: !push },
      ),
    [setParams],
  );

  useEffect(() => {
    if (!history || dayLoading) return;
    const picked = pickedDay.current;
    if (picked !== null) {
      pickedDay.current = null;
      if (history.day === picked) {
        const latest = history.names.at(-1);
        if (latest) setParam(MOMENT_PARAM, momentParam(latest, picked === history.days[0]), true);
        return;
      }
    }
    const next = momentStep(momentRequest(t), history);
    if (next.step === 'load-day') {
      const key = `${t}@${next.day}`;
      if (loadedFor.current === key) return;
      loadedFor.current = key;
      selectDay(next.day);
    } else if (next.step === 'fall-back') {
      setNote(next.note);
      setParam(MOMENT_PARAM, null, false);
    }
  }, [t, history, dayLoading, selectDay, setParam]);

  /** The visitor moved to another picture of the loaded day. */
  const onMoment = useCallback(
    (name: string, current: boolean) => {
      const wanted = momentParam(name, current);
      if (wanted !== t) setParam(MOMENT_PARAM, wanted, false);
    },
    [t, setParam],
  );

  return {
    /** The picture the URL names (null: the loaded day's latest). */
    moment,
    note,
    onMoment,
    /** The picture the page shows behind the viewer: the URL's, or the one it showed when the viewer opened. */
    pageMoment: viewerOpen ? behindViewer.current : moment,
    /** The page's own moves: while the viewer is open only the viewer moves, so the page tells nothing. */
    onPageMoment: viewerOpen ? undefined : onMoment,
    onSelectDay: useCallback(
      (day: string) => {
        pickedDay.current = day;
        selectDay(day);
      },
      [selectDay],
    ),
    viewerOpen,
    // Back closes the viewer (its own entry); closing it keeps the moment the visitor went to inside it.
    openViewer: useCallback(() => setParam(VIEWER_PARAM, '1', true), [setParam]),
    closeViewer: useCallback(() => setParam(VIEWER_PARAM, null, false), [setParam]),
    /** The URL's picture is the one shown (not a day still loading for it). */
    settled: step?.step === 'show',
    /** The compare view's layout, null while it is closed. */
    compare: compareLayoutOf(params.get(COMPARE_PARAM)),
    /** The URL's picture B of the compare view, unchecked. */
    versus: params.get(VERSUS_PARAM),
    // Opening adds an entry, so back closes it; `t` names picture A, so a reload or a link compares the same two.
    openCompare: useCallback(
      (moment: string) =>
        setParamsTo(
          { [MOMENT_PARAM]: moment, [COMPARE_PARAM]: 'side', [VERSUS_PARAM]: null, [VIEWER_PARAM]: null },
          true,
        ),
      [setParamsTo],
    ),
    closeCompare: useCallback(() => setParamsTo({ [COMPARE_PARAM]: null, [VERSUS_PARAM]: null }, false), [setParamsTo]),
    // Inside the compare view the URL follows the choices without adding entries.
    setVersus: useCallback((name: string | null) => setParam(VERSUS_PARAM, name, false), [setParam]),
    setCompareLayout: useCallback((layout: CompareLayout) => setParam(COMPARE_PARAM, layout, false), [setParam]),
  };
}
