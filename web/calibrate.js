// goref's corners page: the four grid corners as handles over the camera's
// view, the grid drawn through them live, Save POSTs them with the PIN.
'use strict';
const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const C = window.gorefCalib = { w: 0, h: 0, n: 19, pts: null };

function mk(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

// the homography taking the unit square's corners to the four points
function homography(p) {
  const [x0, y0, x1, y1, x2, y2, x3, y3] = p;
  const dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = den ? (sx * dy2 - dx2 * sy) / den : 0, h = den ? (dx1 * sy - sx * dy1) / den : 0;
  return (u, v) => {
    const a = x1 - x0 + g * x1, b = x3 - x0 + h * x3, d = y1 - y0 + g * y1, e = y3 - y0 + h * y3;
    const w = g * u + h * v + 1;
    return [(a * u + b * v + x0) / w, (d * u + e * v + y0) / w];
  };
}

function draw() {
  const svg = $('over');
  svg.setAttribute('viewBox', '0 0 ' + C.w + ' ' + C.h);
  svg.replaceChildren();
  const H = homography(C.pts);
  const n = C.n, sw = Math.max(C.w, C.h) / 700;
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    const a = H(t, 0), b = H(t, 1), c = H(0, t), d = H(1, t);
    svg.appendChild(mk('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: '#0f0', 'stroke-width': sw }));
    svg.appendChild(mk('line', { x1: c[0], y1: c[1], x2: d[0], y2: d[1], stroke: '#0f0', 'stroke-width': sw }));
  }
  for (let k = 0; k < 4; k++) {
    const hdl = mk('circle', { cx: C.pts[2 * k], cy: C.pts[2 * k + 1], r: Math.max(C.w, C.h) / 45, class: 'handle', 'data-k': k });
    hdl.addEventListener('pointerdown', (ev) => grab(ev, k));
    svg.appendChild(hdl);
  }
  $('coords').textContent = C.pts.map((v) => v.toFixed(1)).join(',');
}

function grab(ev, k) {
  ev.preventDefault();
  const svg = $('over');
  const move = (e) => {
    const r = svg.getBoundingClientRect();
    C.pts[2 * k] = Math.min(C.w, Math.max(0, (e.clientX - r.left) / r.width * C.w));
    C.pts[2 * k + 1] = Math.min(C.h, Math.max(0, (e.clientY - r.top) / r.height * C.h));
    draw();
  };
  const up = () => { window.removeEventListener('pointermove', move); window.removeEventListener('pointerup', up); };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

async function start() {
  const s = await (await fetch('/state.json', { cache: 'no-store' })).json();
  C.n = s.size || 19;
  if (s.frame) { C.w = s.frame[0]; C.h = s.frame[1]; }
  const img = $('view');
  img.onload = () => {
    if (!C.w) { C.w = img.naturalWidth; C.h = img.naturalHeight; }
    if (!C.pts) {
      // the corners found, or a square in the middle of the view
      C.pts = s.corners ? s.corners.slice() : [C.w * 0.3, C.h * 0.2, C.w * 0.7, C.h * 0.2, C.w * 0.7, C.h * 0.8, C.w * 0.3, C.h * 0.8];
    }
    draw();
  };
  img.onerror = () => setTimeout(() => { img.src = '/snapshot.jpg?' + Date.now(); }, 1000);
  img.src = '/snapshot.jpg?' + Date.now();
}
$('reload').addEventListener('click', () => { $('view').src = '/snapshot.jpg?' + Date.now(); });
$('save').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const msg = $('opmsg');
  if (!C.pts) { msg.textContent = 'no picture yet'; return; }
  const r = await fetch('/calibrate', { method: 'POST', headers: { 'X-Goref-Pin': $('pin').value },
    body: C.pts.map((v) => v.toFixed(1)).join(',') });
  const j = await r.json();
  msg.textContent = r.ok ? 'saved' : (r.status === 403 ? 'refused: the PIN is wrong' : j.error);
});
try { $('pin').value = sessionStorage.getItem('goref-pin') || ''; } catch (e) { /* */ }
start();
