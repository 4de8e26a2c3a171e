/**
 * Full-screen zoom of the shown picture: the picture is the one the page's booking gets, so zooming in reaches
 * that level's pixels and never more. Wheel, pinch, drag, double click, `+`/`-`/`0`, Esc closes.
 */
export interface Zoom {
  open(): void;
  close(): void;
  readonly isOpen: boolean;
}

export function createZoom(
  frame: HTMLElement,
  stage: HTMLElement,
  picture: HTMLImageElement,
  onChange: (open: boolean) => void,
): Zoom {
  let isOpen = false;
  let scale = 1;
  let x = 0;
  let y = 0;
  const pointers = new Map<number, { x: number; y: number }>();
  let pinch = 0;

  /** Up to two screen pixels per picture pixel: the booked level's detail, magnified a little. */
  const maxScale = () => {
    const box = stage.getBoundingClientRect();
    const natural = picture.naturalWidth || box.width;
    const fitted = Math.min(box.width / natural, box.height / (picture.naturalHeight || box.height)) || 1;
    return Math.max(1, 2 / fitted);
  };

  function apply() {
    const box = stage.getBoundingClientRect();
    // Keep the picture over the stage: no panning past its edges.
    x = Math.min(0, Math.max(box.width * (1 - scale), x));
    y = Math.min(0, Math.max(box.height * (1 - scale), y));
    picture.style.transform = scale === 1 ? '' : `translate(${x}px,${y}px) scale(${scale})`;
  }

  function zoomAt(factor: number, cx: number, cy: number) {
    const next = Math.min(maxScale(), Math.max(1, scale * factor));
    x = cx - ((cx - x) * next) / scale;
    y = cy - ((cy - y) * next) / scale;
    scale = next;
    apply();
  }

  const local = (event: { clientX: number; clientY: number }) => {
    const box = stage.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top] as const;
  };

  const listeners: [EventTarget, string, EventListener][] = [
    [
      stage,
      'wheel',
      ((event: WheelEvent) => {
        event.preventDefault();
        zoomAt(event.deltaY < 0 ? 1.25 : 0.8, ...local(event));
      }) as EventListener,
    ],
    [
      stage,
      'dblclick',
      ((event: MouseEvent) => {
        if (scale > 1) {
          scale = 1;
          apply();
        } else zoomAt(2.5, ...local(event));
      }) as EventListener,
    ],
    [
      stage,
      'pointerdown',
      ((event: PointerEvent) => {
        pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
        stage.setPointerCapture?.(event.pointerId);
        pinch = 0;
      }) as EventListener,
    ],
    [
      stage,
      'pointermove',
      ((event: PointerEvent) => {
        const last = pointers.get(event.pointerId);
        if (!last) return;
        pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
        if (pointers.size === 2) {
          const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
          const distance = Math.hypot(a.x - b.x, a.y - b.y);
          if (pinch) zoomAt(distance / pinch, ...local({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 }));
          pinch = distance;
          return;
        }
        x += event.clientX - last.x;
        y += event.clientY - last.y;
        apply();
      }) as EventListener,
    ],
    [
      stage,
      'pointerup',
      ((event: PointerEvent) => {
        pointers.delete(event.pointerId);
      }) as EventListener,
    ],
    [
      stage,
      'pointercancel',
      ((event: PointerEvent) => {
        pointers.delete(event.pointerId);
      }) as EventListener,
    ],
    [
      frame,
      'keydown',
      ((event: KeyboardEvent) => {
        const box = stage.getBoundingClientRect();
        if (event.key === 'Escape') close();
        else if (event.key === '+' || event.key === '=') zoomAt(1.25, box.width / 2, box.height / 2);
        else if (event.key === '-') zoomAt(0.8, box.width / 2, box.height / 2);
        else if (event.key === '0') {
          scale = 1;
          apply();
        } else return;
        event.preventDefault();
      }) as EventListener,
    ],
  ];

  const onFullscreenChange = () => {
    if (!document.fullscreenElement && isOpen) close();
  };

  function open() {
    if (isOpen) return;
    isOpen = true;
    frame.classList.add('full');
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
    const host = (frame.getRootNode() as ShadowRoot).host as HTMLElement;
    host.requestFullscreen?.().then(
      () => document.addEventListener('fullscreenchange', onFullscreenChange),
      () => undefined,
    );
    onChange(true);
  }

  function close() {
    if (!isOpen) return;
    isOpen = false;
    scale = 1;
    apply();
    frame.classList.remove('full');
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
    document.removeEventListener('fullscreenchange', onFullscreenChange);
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    onChange(false);
  }

  return {
    open,
    close,
    get isOpen() {
      return isOpen;
    },
  };
}
