// @ts-check
// The game page: talks to the server of docs/api.md, replays its events one by one (so the
// computer's plays, the pegs and every combination of the show can be followed), and offers
// hints, manual counting with muggins, options, statistics and three languages.
// This module starts it and turns the player's keys and clicks into actions; the store
// (store.js), the transport (controller.js, api.js, live.js), the replay (replay.js) and the views
// (view-*.js, notes.js, words.js) do the rest.

import { canPlay } from './actions.js';
import * as api from '../shared/api.js';
import { installSuitSprite } from '../shared/cards.js';
import { $ } from '../shared/dom.js';
import { errorText, relabelPage, startLanguage, t } from '../shared/i18n.js';
import { checkSession, describeVariant, fillLobby, fillVariantSelect, loadMeta, loadVariants, openJoin, openLobby, openOptions, openStats, previewJoin, readOptions, renderSeatChoices } from './view-dialogs.js';
import { clearHint, openResult, renderHint, renderTablePanel } from './view-panels.js';
import {
  downloadRecord, enterWatch, leaveTable, newGame, offer, playAgain, refresh, resumeOrNew, reviewGame, send, submitJoin,
} from './controller.js';
import { firstVisit, loadGame, resetStats, saveOptions } from '../shared/saved.js';
import {
  S, actions, chooseCards, decisionNow, discardCount, forgetBoard, handCards, needsClaim, setCursor, setHint, setOptions, setPlayCard,
  skipReplay, templates, toggleCard,
} from './store.js';
import { render, renderControls, renderHand } from './view-table.js';
import { showTitle, wireTurnAlert } from './yourturn.js';
import { showError } from './notes.js';
import { keepOffline } from '../shared/offline.js';
import { here, isLocalGame, sourceOf } from './source.js';

// ------------------------------------------------------------------ actions

async function showHint() {
  const kind = decisionNow();
  const game = S.game;
  if (!game || S.busy || !(kind === 'discard' || kind === 'play')) return;
  const panel = $('hint-panel');
  panel.hidden = false;
  panel.textContent = t('thinking');
  panel.scrollIntoView({ block: 'nearest' });
  try {
    setHint(await sourceOf(game).hint());
  } catch (err) {
    panel.textContent = t('said', { who: t('hintFailed'), what: errorText(err) });
    return;
  }
  renderHint();
  renderHand();
  // What the button opened comes into view (beside the table on a wide screen, below on a phone).
  panel.scrollIntoView({ block: 'nearest' });
}

function toggleSelect(card) {
  if (S.busy || decisionNow() !== 'discard') return;
  toggleCard(card, discardCount());
  renderHand();
  renderControls();
}

function playCard(card) {
  if (S.busy || decisionNow() !== 'play') return;
  if (!canPlay(templates(), card)) return;
  if (needsClaim()) {
    setPlayCard(card);
    renderHand();
    renderControls();
    return;
  }
  send({ type: 'play', card });
}

function confirmAction() {
  if (S.continueResolve) { S.continueResolve(); return; }
  const kind = decisionNow();
  if (S.busy || !kind) return;
  if (kind === 'discard' && S.selected.size === discardCount()) {
    send({ type: 'discard', cards: [...S.selected] });
  } else if (kind === 'play' && S.cursor >= 0) {
    const card = handCards()[S.cursor];
    if (card) playCard(card);
  }
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  if (document.querySelector('dialog[open]')) return;
  const target = e.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (typing) return;
  const key = e.key;
  if (key === 'Enter') {
    // Enter confirms: on a card in the discard it sends the discard (Space toggles the card).
    const onCard = target instanceof HTMLElement && target.closest('#hand');
    const onButton = target instanceof HTMLButtonElement && !onCard;
    if (onButton) return;
    e.preventDefault();
    if (onCard && decisionNow() === 'play' && !S.busy) {
      const card = /** @type {HTMLElement} */ (target.closest('.card')).dataset.card;
      playCard(card);
      return;
    }
    confirmAction();
    return;
  }
  if (key === ' ' && S.continueResolve) { e.preventDefault(); S.continueResolve(); return; }
  if (/^[1-9]$/.test(key)) {
    const i = Number(key) - 1;
    const cards = handCards();
    if (i >= cards.length) return;
    e.preventDefault();
    const kind = decisionNow();
    if (kind === 'discard') toggleSelect(cards[i]);
    setCursor(i);
    const btn = $('hand').querySelector(`[data-index="${i + 1}"]`);
    if (btn && !btn.disabled) btn.focus();
    return;
  }
  const lower = key.toLowerCase();
  if (lower === 'h') { e.preventDefault(); showHint(); }
  else if (lower === 'o') { e.preventDefault(); openOptions(false); }
  else if (lower === 'n') { e.preventDefault(); openOptions(true); }
  else if (lower === 's' && S.busy && !S.continueResolve) { skipReplay(); }
  else if (key === 'Escape') { clearHint(); if (S.D) renderHand(); }  // no table yet (the welcome closed): nothing to draw
}

// ------------------------------------------------------------------ start-up

/** What the views' controls do (store.actions). */
function giveActions() {
  Object.assign(actions, {
    send, playCard, toggleSelect, offer, leaveTable,
    chooseDiscard: (cards) => {
      chooseCards(cards);
      renderHand();
      renderControls();
      $('btn-confirm').focus();
    },
    closeHint: () => { clearHint(); renderHand(); },
    retry: () => {
      if (S.offline && !S.game) location.reload();  // the server was never reached: the page starts again
      else if (S.game && S.state) refresh();
      else if (S.game && isLocalGame(S.game.id)) here().then((m) => m.resumeLocal(/** @type {any} */ (S.game)));
      else newGame();
    },
    playHere: () => openOptions(true),
  });
}

function relabel() {
  relabelPage('title', { 'link-howto': '/howto', 'link-practice': '/practice' });
  showTitle();
  if ($('options-dialog').open) renderSeatChoices();
  if (S.state) {
    forgetBoard();
    render(false);
    renderTablePanel();
    if (S.hint) renderHint();
    if ($('result-dialog').open) openResult();
  }
  if ($('play-dialog')?.open) import('./view-playnow.js').then(({ relabelPlayNow }) => relabelPlayNow());
  if ($('options-dialog').open) {
    fillVariantSelect();
    if ($('options-dialog').dataset.welcome) $('options-title').textContent = t('welcomeTitle');
  }
}

/** The account's button: its dialog is loaded at its first opening (the first page load stays small). */
function wireAccount() {
  checkSession();
  $('btn-account').addEventListener('click', () => {
    import('./view-account.js').then(({ openAccount }) => openAccount()).catch((err) => console.error(err));
  });
  // The players' leaderboard and profiles (view-leaderboard.js, view-profile.js): loaded likewise.
  $('btn-players').addEventListener('click', () => {
    import('./view-leaderboard.js').then(({ openLeaderboard }) => openLeaderboard()).catch((err) => console.error(err));
  });
}

/** "Play now": its dialog is loaded at its first opening, like the account's. */
function wirePlayNow() {
  $('btn-play').addEventListener('click', () => {
    import('./view-playnow.js').then(({ openPlayNow }) => openPlayNow()).catch((err) => console.error(err));
  });
}

function wire() {
  $('btn-new').addEventListener('click', () => openOptions(true));
  $('btn-options').addEventListener('click', () => openOptions(false));
  $('btn-stats').addEventListener('click', openStats);
  $('btn-join').addEventListener('click', () => openJoin(''));
  $('btn-lobby').addEventListener('click', openLobby);
  wireAccount();
  wirePlayNow();
  $('lobby-close').addEventListener('click', () => $('lobby-dialog').close());
  // Back from the lobby or the join dialog with no game at all (from the welcome): the welcome again.
  const welcomeAgain = () => {
    if (!S.game && !S.state && !document.querySelector('dialog[open]')) openOptions(true, true);
  };
  $('lobby-dialog').addEventListener('close', welcomeAgain);
  $('lobby-refresh').addEventListener('click', fillLobby);
  $('join-form').addEventListener('submit', submitJoin);
  $('join-code').addEventListener('change', () => previewJoin($('join-code').value));
  $('join-cancel').addEventListener('click', () => $('join-dialog').close());
  $('join-dialog').addEventListener('close', () => {
    const dlg = $('join-dialog');
    if (dlg.dataset.fromLink) {
      // The invitation was not taken: the page goes on as at /.
      dlg.dataset.fromLink = '';
      history.replaceState(null, '', '/');
      resumeOrNew(firstVisit());
    } else {
      welcomeAgain();
    }
  });
  $('btn-hint').addEventListener('click', showHint);
  $('btn-confirm').addEventListener('click', confirmAction);
  $('btn-result').addEventListener('click', openResult);
  $('opt-variant').addEventListener('change', describeVariant);
  $('options-dialog').addEventListener('close', () => {
    const dlg = $('options-dialog');
    const how = dlg.returnValue;
    if (dlg.dataset.welcome) {
      dlg.dataset.welcome = '';
      if (how) setOptions(readOptions());  // Escape ('') keeps nothing of what was chosen
      $('options-title').textContent = t('optionsTitle');
      $('welcome-note').hidden = true;
      $('opt-save').hidden = false;
      $('opt-cancel').hidden = false;
      $('opt-lobby').hidden = true;
      $('opt-join').hidden = true;
      if (how === 'lobby') openLobby();
      else if (how === 'join') openJoin('');
      else if (how === 'start') {
        saveOptions(S.options);
        newGame();
      }  // Escape closes the welcome, and does nothing else: no game against the computer
    } else if (how === 'start' || how === 'save') {
      setOptions(readOptions());
      saveOptions(S.options);
      if (how === 'start') newGame();
    }
    dlg.returnValue = '';
  });
  $('result-new').addEventListener('click', () => { $('result-dialog').close(); newGame(); });
  $('result-again').addEventListener('click', playAgain);
  $('result-close').addEventListener('click', () => $('result-dialog').close());
  $('result-record').addEventListener('click', downloadRecord);
  $('result-review').addEventListener('click', reviewGame);
  $('stats-close').addEventListener('click', () => $('stats-dialog').close());
  $('stats-reset').addEventListener('click', () => {
    if (window.confirm(t('resetConfirm'))) {
      resetStats();
      openStats();
      $('stats-dialog').close();
      openStats();
    }
  });
  document.addEventListener('keydown', onKey);
  wireTurnAlert();
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => S.board && S.board.resize(), 150);
  });
}

async function start() {
  installSuitSprite();
  startLanguage(relabel);
  giveActions();
  $('result-upload').addEventListener('click', () => here().then((m) => m.uploadGame()));
  const welcome = firstVisit();
  wire();
  relabel();
  // The variants and the levels the options offer, before the first dialog opens.
  const lists = Promise.all([loadVariants(), loadMeta()]);
  await lists;
  if (S.offline) {
    // Offline: the game played here resumes, else said.
    const saved = loadGame();
    if (saved && isLocalGame(saved.id) && await (await here()).resumeLocal(saved)) return;
    showError(new api.ApiError(0, 'GET /api/meta and /api/variants failed'));
    return;
  }
  const watchMatch = location.pathname.match(/^\/watch\/([^/]+)\/?$/);
  if (watchMatch) {
    await enterWatch(decodeURIComponent(watchMatch[1]));
    return;
  }
  const joinMatch = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  if (joinMatch) {
    openJoin(decodeURIComponent(joinMatch[1]), true);
    return;
  }
  await resumeOrNew(welcome);
}

// For tests and curious visitors: the current state, read-only (set before the page starts,
// so that a test waiting on it never reads it before it exists).
/** @type {any} */ (window).cribbage = {
  get state() { return S.state; },
  get busy() { return S.busy; },
  get live() { return S.liveStatus; },
  dropLive() { if (S.live) S.live.drop(); },
};

keepOffline();  // the service worker: the pages open offline after one visit
start();

