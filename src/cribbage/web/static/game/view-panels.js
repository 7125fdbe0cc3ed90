// @ts-check
// The game page's panels beside the table: the hint, the result with its chart and statistics,
// and the table with people (who sits where, invitations, the watch link, leaving).

import * as api from '../shared/api.js';
import { cardText } from '../shared/cards.js';
import { $, h, svg } from '../shared/dom.js';
import { cardName, durationText, numText, reasonsLine, t } from '../shared/i18n.js';
import { addLog, announce, showError } from './notes.js';
import {
  S, actions, defaultLevel, isPeople, levels, me, mySide, players, rules, seating, setHint, setOffline, setWatchLink, sideColor, sideOf,
  sidePlaces, spectating, view,
} from './store.js';
import { loadStats } from '../shared/saved.js';
import { changeText } from './standings.js';
import { levelLabel, matchOutcome, resultHeadline, sideName, tableSeatName, waitingText } from './words.js';
import { clockLeft } from './yourturn.js';
import { arriving } from './nextgame.js';
import { isLocalGame } from './source.js';

// ------------------------------------------------------------------ hints

export function clearHint() {
  setHint(null);
  const panel = $('hint-panel');
  panel.hidden = true;
  panel.textContent = '';
}


export const fmt = (x) => (Number.isInteger(x) ? numText(x, 0) : numText(x));

export const pct = (x) => (typeof x === 'number' ? `${numText(100 * x, 1)}%` : '—');

export function renderHint() {
  const panel = $('hint-panel');
  panel.textContent = '';
  const hint = S.hint;
  if (!hint) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.append(h('div', { class: 'hint-head' },
    h('h2', { id: 'hint-title', text: hint.kind === 'discard' ? t('hintDiscardTitle') : t('hintPlayTitle') }),
    h('button', { type: 'button', class: 'icon-btn', 'aria-label': t('close'), text: '×', onclick: () => actions.closeHint() })));
  const lowball = !!rules().lowball;
  // The column the order follows is always shown: the chance of winning near the end.
  const byWin = hint.ranked_by === 'win' || hint.options.some((o) => typeof o.win === 'number');
  if (hint.kind === 'discard') {
    const mine = sideOf(view().dealer) === mySide();
    // Lowball ranks by the fewest points: the total is shown as the player's points (lower is better).
    const total = (o) => (lowball ? -o.total : o.total);
    // The column the order follows comes first after the cards, so a phone shows it too.
    const table = h('table', { class: `hint-table${byWin ? ' by-win' : ''}` },
      h('thead', {}, h('tr', {},
        h('th', { text: '#' }), h('th', { text: t('keep') }), h('th', { text: t('toCribShort') }),
        byWin ? h('th', { class: 'win', text: t('winPts') }) : null,
        h('th', { class: 'total', text: lowball ? t('lowballPts') : t('totalPts') }),
        h('th', { text: t('handPts') }), h('th', { text: mine ? t('cribPtsMine') : t('cribPtsTheirs') }),
        h('th', { text: t('peggingPts') }))));
    const body = h('tbody');
    hint.options.forEach((o, i) => {
      const tr = h('tr', { class: i === 0 ? 'best' : '', tabindex: 0, title: t('useThis') },
        h('td', { text: String(i + 1) }),
        h('td', { class: 'cards-text', text: o.keep.map(cardText).join(' ') }),
        h('td', { class: 'cards-text', text: o.discard.map(cardText).join(' ') }),
        byWin ? h('td', { class: 'win', text: pct(o.win) }) : null,
        h('td', { class: 'total', text: fmt(total(o)) }),
        h('td', { text: fmt(o.hand_points) }),
        h('td', { text: fmt(o.crib_points) + (o.crib_weight ? ` \u00d7${o.crib_weight}` : '') }),
        h('td', { text: fmt(o.pegging) }));
      const use = () => actions.chooseDiscard(o.discard);
      tr.addEventListener('click', use);
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); use(); } });
      body.append(tr);
    });
    table.append(body);
    panel.append(h('p', { class: 'hint-note', text: t('hintDiscardNote') }));
    if (byWin) panel.append(h('p', { class: 'hint-note strong', id: 'hint-win-note', text: t('hintWinNote') }));
    if (lowball) panel.append(h('p', { class: 'hint-note strong', id: 'hint-lowball-note', text: t('hintLowballNote') }));
    panel.append(h('div', { class: 'table-scroll' }, table));
  } else {
    const list = h('ol', { class: 'hint-plays' });
    hint.options.forEach((o, i) => {
      list.append(h('li', { class: i === 0 ? 'best' : '' },
        h('button', { type: 'button', class: 'link-btn', text: cardText(o.card), onclick: () => actions.playCard(o.card), 'aria-label': t('cardLabel', { text: cardText(o.card), name: `${t('play')} ${cardName(o.card)}` }) }),
        h('span', { class: 'hint-value', text: fmt(o.value) }),
        byWin ? h('span', { class: 'hint-value win', text: pct(o.win) }) : null,
        h('span', { class: 'hint-reason', text: reasonsLine(o.reasons) })));
    });
    panel.append(h('p', { class: 'hint-note', text: t('hintPlayNote') }));
    if (byWin) panel.append(h('p', { class: 'hint-note strong', id: 'hint-win-note', text: t('hintPlayWinNote') }));
    if (lowball) panel.append(h('p', { class: 'hint-note strong', id: 'hint-lowball-note', text: t('hintPlayLowballNote') }));
    panel.append(list);
  }
}

export function statsTable() {
  const s = loadStats();
  const avg = (x) => (s.withBreakdown ? (x / s.withBreakdown).toFixed(1) : '—');
  const pct = s.played ? Math.round((100 * s.won) / s.played) : 0;
  const rows = [
    [t('statPlayed'), s.played], [t('statWon'), `${s.won} (${pct}%)`], [t('statLost'), s.lost],
    [t('statSkunksGiven'), s.skunksGiven + (s.doubleGiven ? ` (${t('doubleSkunk')}: ${s.doubleGiven})` : '')],
    [t('statSkunksTaken'), s.skunksTaken + (s.doubleTaken ? ` (${t('doubleSkunk')}: ${s.doubleTaken})` : '')],
    [t('statAvgPegging'), avg(s.pegging)], [t('statAvgHand'), avg(s.hand)], [t('statAvgCrib'), avg(s.crib)],
  ];
  return h('table', { class: 'stats-table' }, h('tbody', {},
    rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row', text: k }), h('td', { text: String(v) })))),
  h('caption', { text: t('statsNote') }));
}

export function chartSVG(st) {
  const history = [...(st.score_history || [])];
  const final = st.result ? st.result.scores : st.view.scores;
  const last = history[history.length - 1];
  if (!history.length || String(last.scores) !== String(final)) history.push({ hand: (last ? last.hand : 0) + 1, scores: final });
  if (!history.length || history[0].scores.some((x) => x !== 0)) history.unshift({ hand: 0, scores: final.map(() => 0) });
  const W = 320, H = 170, L = 30, R = 10, T = 10, B = 24;
  const target = st.view.target;
  const maxY = Math.max(target, ...final);
  const n = history.length - 1 || 1;
  const x = (i) => L + ((W - L - R) * i) / n;
  const y = (v) => T + (H - T - B) * (1 - v / maxY);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': t('chartCaption') });
  /** @type {(name: string, attrs: Record<string, any>, text?: string) => any} */
  const add = (name, attrs, text = undefined) => svg(name, attrs, chart, text);
  for (const v of [0, Math.round(target / 2), target]) {
    add('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === target ? 'grid target' : 'grid' });
    add('text', { x: L - 4, y: y(v) + 3, class: 'axis', 'text-anchor': 'end' }, String(v));
  }
  const skunk = st.view.rules.skunk_line;
  add('line', { x1: L, x2: W - R, y1: y(skunk), y2: y(skunk), class: 'grid skunk' });
  add('text', { x: W - R, y: y(skunk) - 3, class: 'axis', 'text-anchor': 'end' }, t('skunkLine'));
  history.forEach((p, i) => {
    if (n <= 12 || i % Math.ceil(n / 12) === 0) add('text', { x: x(i), y: H - 8, class: 'axis', 'text-anchor': 'middle' }, String(i));
  });
  add('text', { x: W - R, y: H - 1, class: 'axis', 'text-anchor': 'end' }, t('hands'));
  final.forEach((_, side) => {
    const pts = history.map((p, i) => `${x(i).toFixed(1)},${y(p.scores[side] ?? 0).toFixed(1)}`).join(' ');
    const colour = { '--side': sideColor(side) };
    add('polyline', { points: pts, class: 'series', style: colour });
    const lastY = y(history[history.length - 1].scores[side] ?? 0);
    add('circle', { cx: x(n), cy: lastY, r: 3, class: 'point', style: colour });
  });
  return chart;
}

export function openResult() {
  const st = S.state;
  const r = st && st.result;
  if (!st || !r) return;
  $('result-record').hidden = spectating(st);  // the record is the seats', not a spectator's
  $('result-upload').hidden = true;  // a game played here: kept at the server on request, once it answers
  if (S.game && isLocalGame(S.game.id)) api.getMeta().then(() => { setOffline(false); $('result-upload').hidden = false; }, () => setOffline(true));
  $('result-again').hidden = spectating(st) || !(isPeople(st) || S.live);
  // Beside "play again with these players", the other button says it leaves them out.
  $('result-new').textContent = $('result-again').hidden ? t('playAgain') : t('newGameAlone');
  const again = $('result-again');  // a match's next game, else play again (kept on a language change)
  again.dataset.i18n = st.match && !st.match.over ? 'match.next' : 'rematch';
  again.textContent = t(again.dataset.i18n);
  // The last game of a match says who won the match too.
  $('result-title').textContent = [resultHeadline({ ...r, skunk: 0 }), matchOutcome(st.match)].filter(Boolean).join(' ');
  $('result-title').tabIndex = -1;
  const sk = $('result-skunk');
  sk.hidden = !r.skunk;
  sk.textContent = r.skunk === 2 ? t('doubleSkunkMarked') : r.skunk === 1 ? t('skunkMarked') : '';
  const scores = $('result-scores');
  scores.textContent = '';
  for (const [, side] of sidePlaces()) {  // the page's own side first
    scores.append(h('div', { class: `final-score${side === r.winner ? ' winner' : ''}`, style: { '--side': sideColor(side) } },
      h('span', { text: sideName(side) }), h('strong', { text: String(r.scores[side]) })));
  }
  if (rules().lowball) scores.append(h('p', { class: 'field-help', text: t('lowballNote', { n: view().target }) }));
  showRatingChanges(st);
  const chart = $('result-chart');
  chart.textContent = '';
  chart.append(chartSVG(st));
  const bd = $('result-breakdown');
  bd.textContent = '';
  if (st.breakdown && st.breakdown.length) {
    // One row per source and one column per side: narrow enough for a phone in every language.
    const sources = [['pegging', t('pegging')], ['hand', t('hand')], ['crib', t('crib')], ['other', t('other')]];
    const sides = sidePlaces().map(([, side]) => side);  // the page's own side first
    const table = h('table', { class: 'breakdown-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('source') }),
        sides.map((side) => h('th', { scope: 'col', text: sideName(side) })))),
      h('tbody', {}, sources.map(([key, name]) => h('tr', {},
        h('th', { scope: 'row', text: name }),
        sides.map((side) => h('td', { text: String(st.breakdown[side][key] ?? 0) }))))));
    bd.append(h('h3', { text: t('pointsBySource') }), table);
  }
  const stats = $('result-stats');
  stats.textContent = '';
  stats.append(h('h3', { text: t('statistics') }), statsTable());
  const dlg = $('result-dialog');
  if (!dlg.open) dlg.showModal();
  $('result-title').focus();
}

/**
 * A rated game's rating changes on its result screen: each seat's rating after the game and its
 * change (the STATE's rating_change), once recorded: it may come a moment after the game's last
 * state, in the same state sent again (renderTablePanel shows it then).
 * @param {Record<string, any>} st
 */
function showRatingChanges(st) {
  const box = $('result-ratings');
  const change = st.rating_change;
  box.hidden = !change;
  if (!change) { box.textContent = ''; return; }
  box.replaceChildren(h('h3', { text: t('result.ratings') }),
    ...change.seats.map((/** @type {{seat: number, shown: number, change: number | null}} */ s) => {
      const vars = { name: tableSeatName(s.seat, st), rating: s.shown, change: changeText(s.change) };
      const trend = s.change === null ? '' : s.change < 0 ? 'down' : 'up';
      return h('p', { class: `rating-change ${trend}`, 'data-seat': String(s.seat),
        text: s.change === null ? t('result.ratingFirst', vars) : t('result.rating', vars) });
    }));
}

export function copyText(text) {
  const done = () => announce(t('copied'), { log: false });
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, () => {});
}

/** The time left of a turn clock, from its deadline (the server's time, seconds since the epoch),
 * never more than the table's clock (clockLeft, yourturn.js). */
export function clockLeftText(deadline, clock = S.state && S.state.options ? S.state.options.clock : null) {
  return t('clockLeft', { time: durationText(clockLeft(Number(deadline), Date.now() / 1000, clock)) });
}
setInterval(() => {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.clock-left'))) el.textContent = clockLeftText(el.dataset.deadline);
}, 1000);

/** A log line for each person who left since the previous state (their seat opened, or a computer took it). */
export function noteLeavers(before, st) {
  if (!before || before.id !== st.id || !Array.isArray(before.seats) || !Array.isArray(st.seats)) return;
  for (const old of before.seats) {
    const now = st.seats[old.seat];
    if (old.kind !== 'human' || !old.taken || !now || old.seat === me()) continue;
    if (now.kind === 'computer') addLog(t('leftForComputer', { name: old.name || t('playerN', { n: old.seat + 1 }), level: levelLabel(now.level) }));
    else if (!now.taken) addLog(t('leftSeat', { name: old.name || t('playerN', { n: old.seat + 1 }) }));
  }
}

/** Whether a person's seat has a page connected now, as the server says (``connected``). */
export function presenceBadge(online) {
  return h('span', { class: `presence ${online ? 'online' : 'offline'}`, text: t(online ? 'seatOnline' : 'seatOffline') });
}

/** Who sits where, who is to act, the invitations (for the creator) and the live connection. */
export function renderTablePanel() {
  const panel = $('table-panel');
  // A table of people stays one (its live connection too) when a computer takes a leaver's seat.
  if (!S.state || !S.game || !(isPeople() || spectating() || S.live)) { panel.hidden = true; panel.textContent = ''; return; }
  const st = S.state;
  if (st.over && $('result-dialog').open) showRatingChanges(st);  // recorded after the end: sent again
  const seated = seating() || st;
  const n = players();
  panel.hidden = false;
  panel.textContent = '';
  const status = h('p', { class: 'table-status', id: 'table-status', text: st.over ? resultHeadline(st.result) : spectating() ? t('watching') : waitingText() });
  const live = h('span', { class: `live-status ${S.liveStatus || 'connecting'}`, id: 'live-status', text: t(`live.${S.liveStatus || 'connecting'}`) });
  const list = h('ul', { class: 'table-seats' });
  for (let server = 0; server < n; server++) {
    const info = (seated.seats || [])[server] || { kind: 'human', taken: false };
    const acting = !st.over && !(seated.waiting_for || []).length && st.view.to_act === server;
    list.append(h('li', { class: `${info.taken ? 'taken' : 'open'}${acting ? ' to-act' : ''}`, 'data-seat': server, style: { '--side': sideColor(sideOf(server)) } },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'table-seat-name', text: tableSeatName(server, seated) }),
      h('small', { text: info.kind === 'computer' ? levelLabel(info.level) : info.taken ? t('joined') : t('notJoined') }),
      info.kind === 'human' && info.taken ? presenceBadge((seated.connected || []).includes(server)) : null,
      (seated.away || []).includes(server) ? h('span', { class: 'badge away', text: t('away') }) : null,
      seated.turn_clock && seated.turn_clock.seat === server && !st.over
        ? h('span', { class: 'badge clock-left', 'data-deadline': seated.turn_clock.deadline, text: clockLeftText(seated.turn_clock.deadline) }) : null,
      acting ? h('span', { class: 'badge turn', text: t('toAct') }) : null,
      offlinePerson(st, info) ? computerChoice(server, true) : null));
  }
  panel.append(h('div', { class: 'table-head' }, status, live), list);
  redrawAfterArrival(st);
  const invites = seated.invites || [];
  if (invites.length) {
    const box = h('div', { class: 'invites' }, h('h2', { text: t('invitations') }));
    for (const inv of invites) {
      const link = new URL(inv.url, location.origin).href;
      box.append(h('div', { class: 'invite', 'data-seat': inv.seat },
        h('span', { class: 'invite-seat', text: t('seatN', { n: inv.seat + 1 }) }),
        h('code', { class: 'invite-code', text: inv.code }),
        h('input', { class: 'invite-link', readonly: true, value: link, 'aria-label': t('inviteLink') }),
        h('span', { class: 'invite-buttons' },
          h('button', { type: 'button', class: 'secondary copy-link', text: t('copyLink'), onclick: () => copyText(link) }),
          h('button', { type: 'button', class: 'secondary copy-code', text: t('copyCode'), onclick: () => copyText(inv.code) })),
        me() === 0 ? computerChoice(inv.seat) : null));
    }
    panel.append(box);
  }
  if (!spectating() && me() === 0) panel.append(watchBox());
  const push = pushPart(st);
  if (push) panel.append(push);
  if (!spectating() && !st.over) {
    panel.append(h('div', { class: 'leave-box' },
      h('button', { type: 'button', class: 'secondary', id: 'btn-leave', text: t('leaveTable'), onclick: () => actions.leaveTable() })));
  }
}

/** @type {typeof import('./push.js') | null} */
let pushModule = null;
let pushLoading = false;

/** The Web Push opt-in (push.js: loaded at tables with a clock only). */
function pushPart(st) {
  if (spectating() || !st.options || !st.options.clock) return null;
  if (pushModule) return pushModule.pushBox(st, S.game, renderTablePanel);
  if (!pushLoading) {
    pushLoading = true;
    import('./push.js').then((m) => { pushModule = m; renderTablePanel(); }).catch(() => {});
  }
  return null;
}

/** The creator's choice for an open seat, or (after asking) an offline person's: a computer of a
 * level takes it. */
export function computerChoice(seat, offline = false) {
  const sel = h('select', { class: 'seat-computer-level', 'aria-label': t('computerTakes') },
    ...levels().map((level) => h('option', { value: level, text: levelLabel(level) })));
  sel.value = defaultLevel();
  return h('span', { class: 'seat-computer', 'data-seat': seat }, sel,
    h('button', { type: 'button', class: 'secondary seat-computer-go', text: t('computerTakes'), onclick: async () => {
      if (offline && !window.confirm(t('giveSeatConfirm', { name: tableSeatName(seat) }))) return;
      if (!S.game) return;
      try {
        actions.offer(await api.seatComputer(S.game.id, S.game.token, seat, sel.value));
      } catch (err) {
        showError(err);
      }
    } }));
}

/** Whether the creator may give a seat's person to a computer: seated, offline, not the creator,
 * and not on their way to a rematch (its `arrival`; the panel is drawn again when that is over). */
export function offlinePerson(st, info) {
  return me() === 0 && !spectating(st) && !st.over && info.kind === 'human' && info.taken
    && info.seat !== 0 && !(st.connected || []).includes(info.seat) && !arriving(st, Date.now() / 1000);
}

/** The table panel drawn again once a rematch's people have had their time to arrive. */
let arrivalTimer = 0;
function redrawAfterArrival(st) {
  clearTimeout(arrivalTimer);
  const now = Date.now() / 1000;
  if (me() === 0 && !st.over && arriving(st, now)) arrivalTimer = window.setTimeout(renderTablePanel, (st.arrival - now) * 1000 + 50);
}

/** The creator's watch link: asked for once, on a click, then shown with a copy button. */
export function watchBox() {
  const box = h('div', { class: 'watch-box' });
  const game = S.game;
  if (!game) return box;
  if (!S.watchLink || S.watchLink.id !== game.id) {
    box.append(h('button', { type: 'button', class: 'secondary', id: 'btn-watch-link', text: t('getWatchLink'), onclick: async () => {
      try {
        const link = await api.watchLink(game.id, game.token);
        setWatchLink({ id: game.id, url: new URL(link.url, location.origin).href });
        renderTablePanel();
      } catch (err) {
        showError(err);
      }
    } }));
    return box;
  }
  const url = S.watchLink.url;
  box.append(h('span', { class: 'invite-seat', text: t('watchLink') }),
    h('input', { class: 'watch-link', id: 'watch-link', readonly: true, value: url, 'aria-label': t('watchLink') }),
    h('button', { type: 'button', class: 'secondary copy-link', text: t('copyLink'), onclick: () => copyText(url) }));
  return box;
}
