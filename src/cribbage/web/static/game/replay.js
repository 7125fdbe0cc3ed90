// @ts-check
// The replay: the events of a STATE, one by one, as steps of the animation (the computer's plays,
// the pegs, every combination of the show).  What each event does to the display model is the
// pure function displayAfter (tests/js): the public table the step carries; the rest times,
// announces and draws it.

import { cardText } from '../shared/cards.js';
import { EV } from '../shared/codes.js';
import { $ } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { addLog, announce, bubble, pause } from './notes.js';
import { displayAfter, entryFromEvent, scoresAfter } from '../shared/display.js';
import {
  S, clearChoice, closeShow, decisionOf, isMine, me, putAwaitingEntry, putCountForm, putShowEntry, setHighlight, sideOf, spectating,
  updateDisplay, updateEntry, waitForContinue,
} from './store.js';
import { placePegs, render, renderCenter, renderControls, renderScoreboard } from './view-table.js';
import { resultHeadline, scoreText, seatName, whose } from './words.js';

// ------------------------------------------------------------------ replaying events

export async function replay(events, st) {
  const D = S.D;
  const epoch = S.epoch;
  // A count awaiting the muggins decision is not among the events: the server sends it once
  // the decision is taken (syncShowPanel shows its cards and claim from the view meanwhile).
  for (const ev of events) {
    if (epoch !== S.epoch) return;  // the page went to another game meanwhile
    await applyEvent(ev, st, D);
  }
}

/** The pegs move to the scores after a scoring event. */
function setScores(ev, D) {
  updateDisplay(D, scoresAfter(ev));
  placePegs(D, true);
  renderScoreboard();
}

/**
 * The table shown after an event (displayAfter). D is the display of the replay's start: the
 * page may have gone to another game meanwhile, whose display (S.D) this must not touch.
 */
function step(D, ev, st) {
  updateDisplay(D, displayAfter(D, ev, { view: st.view, seat: spectating() ? null : me() }));
}

/** Show one event of a replay: the table after it, what was said, a pause to follow it. */
async function applyEvent(ev, st, D) {
  switch (ev.kind) {
    case EV.CUT:
    case EV.RECUT:
    case EV.DEAL:
    case EV.DISCARD:
    case EV.STARTER:
      await dealEvent(ev, st, D);
      break;
    case EV.PLAY:
    case EV.GO:
    case EV.RESET:
      await peggingEvent(ev, st, D);
      break;
    case EV.SCORE: {
      const side = ev.side ?? sideOf(ev.seat);
      setHighlight((ev.combos || []).flatMap((c) => c.cards));
      setScores(ev, D);
      renderCenter();
      const who = seatName(ev.seat);
      announce(t('said', { who, what: scoreText(ev) }), { side, big: true });
      await pause(1300);
      setHighlight();
      renderCenter();
      break;
    }
    case EV.SHOW:
      await showEvent(ev, st, D);
      break;
    case EV.MUGGINS:
    case EV.PENALTY:
    case EV.PASS:
      await decisionEvent(ev, D);
      break;
    case EV.HAND_OVER:
      addLog(t('handOver'));
      if (S.show) {
        await waitContinue();
        closeShow();
      }
      step(D, ev, st);
      render();
      break;
    case EV.WIN:
      addLog(resultHeadline(st.result) || t('gameOver'));
      announce(t('gameOver'), { big: true, log: false });
      await pause(900);
      break;
    default:
      // Unknown kinds are logged, never fatal: the server may add some.
      addLog(ev.kind);
  }
}

/** The cut for the deal, the deal, the discards and the starter. */
async function dealEvent(ev, st, D) {
  switch (ev.kind) {
    case EV.CUT: {
      const cards = (ev.cards || []).map((c, seat) => `${seatName(seat)} ${cardText(c)}`).join(' · ');
      step(D, ev, st);
      announce(t('said', { who: t('cutForDeal'), what: `${cards} — ${t('dealsFirst', { name: seatName(ev.seat) })}` }), { big: true });
      render();
      await pause(1400);
      break;
    }
    case EV.RECUT:
      announce(t('said', { who: t('cutForDeal'), what: `${(ev.cards || []).map(cardText).join(' · ')} — ${t('recut')}` }));
      await pause(900);
      break;
    case EV.DEAL:
      // A new hand: the dealt cards come from the final view (the server stops at the discard).
      step(D, ev, st);
      addLog(t('dealLog', { name: seatName(ev.seat) }));
      render();
      await pause(300);
      break;
    case EV.DISCARD: {
      step(D, ev, st);
      // The people discard at the same time: another's discard leaves the cards chosen here.
      if (isMine(ev.seat)) clearChoice();
      render();
      await pause(isMine(ev.seat) ? 150 : 350);
      break;
    }
    case EV.STARTER:
      step(D, ev, st);
      renderCenter();
      announce(t('starterIs', { card: cardText(ev.cards[0]) }));
      $('starter').firstChild?.classList.add('flip');
      await pause(900);
      break;
  }
}

/** The pegging: a card played, a go, the count starting again. */
async function peggingEvent(ev, st, D) {
  switch (ev.kind) {
    case EV.PLAY: {
      const card = ev.cards[0];
      step(D, ev, st);
      addLog(t('playLog', { name: seatName(ev.seat), card: cardText(card), count: ev.count }));
      render();
      const last = $('sequence').lastChild;
      if (last) last.classList.add('arrive');
      await pause(isMine(ev.seat) ? 350 : 900);
      break;
    }
    case EV.GO:
      bubble(ev.seat, t('go'));
      announce(t('said', { who: seatName(ev.seat), what: t('go') }), { side: sideOf(ev.seat) });
      await pause(800);
      break;
    case EV.RESET:
      await pause(700);
      step(D, ev, st);
      setHighlight();
      if (ev.detail !== 'end of play') announce(t('countReset'), { log: true });
      render();
      await pause(250);
      break;
  }
}

// ------------------------------------------------------------------ the show

async function showEvent(ev, st, D) {
  const entry = entryFromEvent(ev, D, sideOf(ev.seat));
  // The count that awaited the muggins decision (shown from the view) becomes this one: one entry.
  putShowEntry(entry);
  step(D, ev, st);
  await explain(entry, ev, D);
}

export async function explain(entry, ev, D) {
  updateEntry(entry, { revealed: true, awaiting: false });
  renderCenter();
  await pause(500);
  for (let i = 0; i < entry.combos.length; i++) {
    updateEntry(entry, { step: i + 1 });
    renderCenter();
    await pause(entry.combos.length > 8 ? 450 : 750);
  }
  updateEntry(entry, { step: entry.combos.length, done: true });
  if (ev) setScores(ev, D);
  renderCenter();
  const total = entry.combos.reduce((a, c) => a + c.points, 0);
  addLog(t('said', { who: whose(entry.seat, entry.what), what: total ? t('pointsN', { n: total }) : t('nineteen') })
    + (entry.claim !== null ? ` (${t('stated', { n: entry.claim })})` : ''));
  await pause(900);
}

export async function decisionEvent(ev, D) {
  const show = S.show;
  // An over-count's excess (detail "over-count") is given where the count was stated.
  const overCount = ev.kind === EV.PENALTY && ev.detail === 'over-count';
  const inShow = ev.detail === 'show' || ((!ev.detail || overCount) && show);
  let entry = null;
  if (show && inShow) {
    entry = [...show.entries].reverse().find((e) => !e.form);
    if (entry && entry.awaiting) await explain(entry, null, D);
  }
  let text;
  if (ev.kind === EV.PASS) text = t('passed', { name: seatName(ev.seat) });
  else if (ev.kind === EV.MUGGINS) text = t('mugginsCalled', { name: seatName(ev.seat), n: ev.points || 0 });
  else if (overCount) text = t('overcountPenalty', { name: seatName(ev.seat), n: ev.points || 0 });
  else text = t('penaltyCalled', { name: seatName(ev.seat), n: ev.points || 0 });
  if (entry) updateEntry(entry, {}, text);
  if (ev.kind !== EV.PASS) setScores(ev, D);
  if (ev.kind !== EV.PASS || !isMine(ev.seat)) announce(text, { side: ev.side ?? null, big: ev.kind === EV.MUGGINS });
  else addLog(text);
  renderCenter();
  await pause(ev.kind === EV.PASS ? 500 : 1300);
}

export function waitContinue() {
  return new Promise((resolve) => {
    waitForContinue(resolve);
    renderCenter();
    renderControls();
    const btn = $('btn-continue');
    if (btn) { btn.scrollIntoView({ block: 'nearest' }); btn.focus({ preventScroll: true }); }
  });
}

/** After a replay: open the show panel for the player's own count, or a count awaiting muggins. */
export function syncShowPanel(st) {
  const kind = decisionOf(st);
  const v = st.view;
  if (kind === 'count') {
    const next = v.show_order[(v.shown || []).length] || { seat: me(), what: 'hand' };
    const cards = next.what === 'crib' ? (v.crib && v.crib.length ? v.crib : v.discards || []) : v.kept;
    const hidden = next.what === 'crib' ? Math.max(0, v.rules.crib_size - cards.length) : 0;
    putCountForm({ seat: me(), what: next.what, cards: [...cards], hidden, starter: v.starter, combos: [], claim: null, step: 0, notes: [], form: 'count', side: sideOf(me()) });
  } else if (v.claim && v.phase === 'show') {
    // A count awaiting the muggins decision, for every seat: its cards and the stated points,
    // from the view (its true points come in the events once every opponent has decided).
    const { seat, what, points } = v.claim;
    const shown = [...(v.shown || [])].reverse().find((e) => e.seat === seat && e.what === what);
    const entry = { seat, what, cards: shown ? [...shown.cards] : [], starter: v.starter, combos: [], claim: points, step: 0, notes: [], side: sideOf(seat), awaiting: true };
    if (putAwaitingEntry(entry)) addLog(t('claimLog', { whose: whose(seat, what), n: points }));
  } else if (S.show && v.phase !== 'show' && !S.continueResolve) {
    closeShow();
  }
}
