/**
 * The banners' only CSS, scoped by the shadow root. The font stack names Noto faces for the
 * Indic and Perso-Arabic scripts and the line height leaves room for their marks (never 1).
 */
export const css = `:host{all:initial}
.c,.pc{position:fixed;z-index:2147483000;font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari","Noto Sans Bengali","Noto Sans Gujarati","Noto Sans Gurmukhi","Noto Sans Tamil","Noto Sans Telugu","Noto Sans Kannada","Noto Sans Malayalam","Noto Sans Oriya","Noto Sans Ol Chiki","Noto Sans Meetei Mayek","Noto Nastaliq Urdu","Noto Naskh Arabic",sans-serif;color:var(--fg)}
.c{bottom:16px;right:16px;width:min(30rem,calc(100vw - 32px))}
.bl{right:auto;left:16px}.bc{right:auto;left:50%;transform:translateX(-50%)}.tc{bottom:auto;top:16px;right:auto;left:50%;transform:translateX(-50%)}
.pc{bottom:8px;left:8px}
.d{background:var(--bg);border:1px solid #6b7280;border-radius:var(--r);box-shadow:0 4px 24px rgba(0,0,0,.25);padding:16px;max-height:80vh;overflow:auto;margin-top:8px}
h2{font-size:1.15em;margin:0 0 8px;line-height:1.5}h3{font-size:1em;margin:12px 0 4px}p{margin:0 0 8px}ul{margin:0;padding:0;list-style:none}
a{color:var(--pc)}
button,select{font:inherit;min-height:44px;min-width:44px;padding:6px 14px;border-radius:6px;border:2px solid var(--pc);background:var(--bg);color:var(--pc);cursor:pointer}
button.p{background:var(--pc);color:var(--pf)}
.pc button{min-height:32px;padding:2px 10px;font-size:13px}
:focus-visible{outline:3px solid var(--pc);outline-offset:2px}
.r{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px;align-items:center}
.t{border-top:1px solid #d1d5db;padding:8px 0}.th{display:flex;gap:8px;align-items:center}.th label{font-weight:600;flex:1}
.td{font-size:.93em}.lk{font-size:.87em}
input{width:24px;height:24px;margin:0;accent-color:var(--pc)}
.ag{display:block;margin:6px 0}[type=email]{display:block;width:100%;height:44px;font:inherit;box-sizing:border-box}
.s{font-size:.87em}.lg{margin-inline-start:auto}
img{max-height:32px;max-width:120px}`;
