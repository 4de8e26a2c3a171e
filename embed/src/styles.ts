/**
 * The player's styles, inside its shadow root: the partner's CSS does not reach in, these do not reach out.
 * Adopted as a constructed stylesheet, which a page's `style-src` does not govern, so a strict policy that
 * allows no inline styles still shows the player as designed.
 */
export const CSS = `
:host{display:block;position:relative;width:640px;max-width:100%;color:#fff;font:13px/1.3 system-ui,-apple-system,"Segoe UI",sans-serif;background:#0b1d2a;border-radius:6px;overflow:hidden;contain:content}
:host([hidden]){display:none}
:host([size=fill]){width:100%;height:100%;border-radius:0}
.p{display:flex;flex-direction:column;height:100%}
.s{position:relative;flex:1;min-height:0;aspect-ratio:16/9;overflow:hidden;background:#0b1d2a;touch-action:none}
:host([size=fill]) .s{aspect-ratio:auto}
.s img,.s video{position:absolute;inset:0;width:100%;height:100%;object-fit:contain;transform-origin:0 0}
[hidden]{display:none!important}
.o{position:absolute;display:flex;gap:6px;align-items:center}
.tl{top:8px;left:8px}.tr{top:8px;right:8px}.br{bottom:8px;right:8px}
.chip{background:rgba(0,0,0,.55);padding:3px 7px;border-radius:4px;color:#fff;text-decoration:none;font-size:12px}
a.chip:hover,a.chip:focus-visible{background:rgba(0,0,0,.8)}
button{font:inherit;color:#fff;background:rgba(0,0,0,.55);border:0;border-radius:4px;padding:4px 9px;cursor:pointer;min-height:28px}
button:hover,button:focus-visible{background:#1769aa}
:focus-visible{outline:2px solid #7cc4ff;outline-offset:1px}
.b{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;padding:6px 8px;background:#10293b}
.b input{flex:1;min-width:120px;accent-color:#7cc4ff}
.b select{font:inherit;color:#fff;background:#0b1d2a;border:1px solid #3d5a70;border-radius:4px;padding:2px 4px}
.b a{color:#9fd3ff;margin-left:auto}
.t{font-variant-numeric:tabular-nums;min-width:3em}
.full{position:fixed;inset:0;z-index:2147483647;border-radius:0}
.full .s{aspect-ratio:auto}
.full .s img{cursor:grab}
.msg{position:absolute;inset:0;display:grid;place-items:center;color:#cfe3f2}
`;
