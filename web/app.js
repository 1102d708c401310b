// goref's live page: the board from /state.json, the events from /events
// (Server-Sent Events, resumed with Last-Event-ID), the operator's buttons as
// POSTs with the PIN. No third-party code.
'use strict';
// window.goref: what the page holds, readable by a test: the events as received (their data and ids), when
// each arrived and when each move was first drawn (performance.now()), the banners shown
const G = window.goref = { events: [], ids: [], arrived: {}, drawn: [], banners: [], last: 0, resyncs: 0, state: null,
  es: null, loading: false, again: false };
const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const LETTERS = 'ABCDEFGHJKLMNOPQRST';
const RULINGS = new Set(['illegal', 'double_move', 'missed_capture', 'wrong_removal', 'takeback', 'moved_stone',
  'disturbed', 'warning', 'ambiguous', 'result']);

function el(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawBoard(s) {
  const svg = $('board');
  const n = s.size || 19;
  const cell = 100 / (n + 1);
  const at = (i) => cell * (i + 1);
  svg.replaceChildren();
  svg.appendChild(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: '#dcb35c' }));
  for (let i = 0; i < n; i++) {
    svg.appendChild(el('line', { x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), stroke: '#000', 'stroke-width': 0.12 }));
    svg.appendChild(el('line', { x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), stroke: '#000', 'stroke-width': 0.12 }));
    const fs = cell * 0.42;
    // coordinates as on the players' side: A.. left to right, n..1 top to bottom
    svg.appendChild(el('text', { x: at(i), y: cell * 0.45, 'font-size': fs, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, LETTERS[i]));
    svg.appendChild(el('text', { x: at(i), y: 100 - cell * 0.45, 'font-size': fs, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, LETTERS[i]));
    svg.appendChild(el('text', { x: cell * 0.45, y: at(i), 'font-size': fs, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, String(n - i)));
    svg.appendChild(el('text', { x: 100 - cell * 0.45, y: at(i), 'font-size': fs, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, String(n - i)));
  }
  const stars = n === 19 ? [3, 9, 15] : n === 13 ? [3, 6, 9] : n === 9 ? [2, 4, 6] : [];
  for (const x of stars) for (const y of stars)
    if (n !== 9 || x === 4 || y === 4 || (x !== 4 && y !== 4))
      svg.appendChild(el('circle', { cx: at(x), cy: at(y), r: cell * 0.1, fill: '#000' }));
  if (!s.board) return;
  const last = s.moves && s.moves.length ? s.moves[s.moves.length - 1] : null;
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const c = s.board[y][x];
    if (c === '.') continue;
    const name = LETTERS[x] + (n - y);
    const g = el('circle', { cx: at(x), cy: at(y), r: cell * 0.47, fill: c === 'X' ? '#111' : '#fafafa',
      stroke: '#000', 'stroke-width': 0.1, 'data-point': name, class: 'stone ' + (c === 'X' ? 'black' : 'white') });
    svg.appendChild(g);
    if (last && last[1] === name)
      svg.appendChild(el('circle', { cx: at(x), cy: at(y), r: cell * 0.2, fill: 'none', stroke: c === 'X' ? '#fff' : '#000',
        'stroke-width': 0.35, class: 'last', 'data-point': name }));
  }
}

function clock(t) {
  if (!(t >= 0)) return '';
  const m = Math.floor(t / 60), s = Math.floor(t % 60);
  return m + ':' + String(s).padStart(2, '0');
}

function render(s) {
  drawBoard(s);
  const moves = $('moves');
  moves.replaceChildren();
  const now = performance.now();
  (s.moves || []).forEach((m, i) => { if (G.drawn[i] === undefined) G.drawn[i] = now; });
  for (const m of s.moves || []) {
    const li = document.createElement('li');
    li.textContent = (m[0] === 'B' ? '\u25cf ' : '\u25cb ') + m[1] + ' ' + clock(m[2]);
    moves.appendChild(li);
  }
  $('tomove').textContent = s.board ? (s.finished ? 'finished' + (s.re ? ': ' + s.re : '') : (s.to_move === 'W' ? 'White' : 'Black') + ' to move') : 'no board seen yet';
  $('warn').textContent = s.warnings ? 'warnings B ' + s.warnings.B + ' W ' + s.warnings.W : '';
  if (s.count) showCount(s.count); else $('count').hidden = true;
}

function showCount(c) {
  const box = $('count');
  const who = c.winner === 'B' ? 'Black' : c.winner === 'W' ? 'White' : 'Nobody';
  box.replaceChildren();
  const t = document.createElement('table');
  const row = (a, b, cc) => { const tr = t.insertRow(); for (const v of [a, b, cc]) { const td = tr.insertCell(); td.textContent = v; } };
  row('', 'Black', 'White');
  row('area', c.black, c.white);
  row('warnings', c.black_warnings, c.white_warnings);
  const p = document.createElement('p');
  p.id = 'count-text';
  p.textContent = 'dame ' + c.dame + ', komi ' + c.komi + ' stones: ' + who + ' wins by ' + c.margin + ' stones (' + c.result_points + ')';
  box.append(t, p);
  box.dataset.black = c.black; box.dataset.white = c.white; box.dataset.result = c.result_points;
  box.hidden = false;
}

async function loadState() {
  if (G.loading) { G.again = true; return; }
  G.loading = true;
  try {
    const r = await fetch('/state.json', { cache: 'no-store' });
    const s = await r.json();
    G.state = s;
    render(s);
  } catch (e) { /* the next event tries again */ }
  G.loading = false;
  if (G.again) { G.again = false; loadState(); }
}

let audio = null;
function ding() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.2;
    o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.35);
  } catch (e) { /* no sound here */ }
}

function banner(ev) {
  $('banner-art').textContent = ev.article ? 'Article ' + ev.article + ':' : '';
  $('banner-text').textContent = ev.message || ev.type;
  const b = $('banner');
  b.dataset.type = ev.type;
  b.dataset.article = ev.article || '';
  b.className = 'banner' + (ev.type === 'result' ? ' info' : '');
  b.hidden = false;
  G.banners.push({ type: ev.type, article: ev.article || '', text: b.textContent });
}

function logLine(text, ruling) {
  const li = document.createElement('li');
  li.textContent = text;
  if (ruling) li.className = 'ruling';
  const log = $('log');
  log.prepend(li);
  while (log.children.length > 300) log.lastChild.remove();
}

function onEvent(msg) {
  const id = Number(msg.lastEventId);
  if (id <= G.last) return; // seen already
  let ev;
  try { ev = JSON.parse(msg.data); } catch (e) { return; }
  G.events.push(msg.data); G.ids.push(id); G.last = id; G.arrived[id] = performance.now();
  const ruling = RULINGS.has(ev.type);
  logLine(clock(ev.t) + ' ' + (ev.message || ev.type + (ev.point ? ' ' + ev.point : '')), ruling);
  if (ruling) { banner(ev); ding(); }
  if (ev.type === 'restored' || ev.type === 'lifted' || ev.type === 'accepted') $('banner').hidden = true;
  if (ev.type === 'new_game') { $('log').replaceChildren(); $('banner').hidden = true; }
  if (ev.type === 'count') showCount(ev);
  loadState();
}

function connect(after) {
  if (G.es) G.es.close();
  const es = new EventSource('/events?after=' + after);
  G.es = es;
  es.onopen = () => { $('conn').textContent = 'live'; $('conn').className = 'conn on'; };
  es.onerror = () => { $('conn').textContent = 'reconnecting'; $('conn').className = 'conn off'; };
  es.onmessage = onEvent;
  es.addEventListener('resync', (msg) => {
    G.resyncs++;
    G.last = Number(msg.lastEventId);
    logLine('(fell behind: the page was read again)', false);
    loadState();
  });
}
// a dropped connection, as Wi-Fi does: the stream is opened again after the last event seen
G.dropStream = () => connect(G.last);

async function act(name) {
  const msg = $('opmsg');
  msg.textContent = '...'; msg.className = '';
  try {
    const r = await fetch('/action/' + name, { method: 'POST', headers: { 'X-Goref-Pin': $('pin').value } });
    const j = await r.json();
    msg.textContent = r.ok ? name + ': done' : (r.status === 403 ? 'refused: the PIN is wrong' : j.error || 'refused');
    msg.className = r.ok ? '' : 'err';
  } catch (e) { msg.textContent = 'no answer'; msg.className = 'err'; }
}

for (const b of document.querySelectorAll('#ops button')) {
  b.addEventListener('click', () => {
    if (b.dataset.act === 'new-game' && !window.confirm('Set this game aside and start a new one?')) return;
    act(b.dataset.act);
  });
}
try { $('pin').value = sessionStorage.getItem('goref-pin') || ''; } catch (e) { /* private mode */ }
$('pin').addEventListener('change', () => { try { sessionStorage.setItem('goref-pin', $('pin').value); } catch (e) { /* */ } });

// the camera's view, once a second, only while the page is seen
const cam = $('camera');
function refreshCamera() { if (!document.hidden) cam.src = '/snapshot.jpg?' + Date.now(); }
setInterval(refreshCamera, 1000);

(async () => {
  await loadState();
  G.last = G.state ? G.state.event || 0 : 0;
  // the events already in the state are not shown again; the log starts here
  connect(G.last);
  refreshCamera();
})();
