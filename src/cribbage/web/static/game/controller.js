// @ts-check
// The game page's controller: the transport of a game, actions sent over the live socket (live.js)
// or its source (source.js), the states received (pushed or answered) put in order and replayed,
// and going from game to game (a new one, an invitation, a rematch, a watch link).

import { actionFor, hasTurn } from './actions.js';
import * as api from '../shared/api.js';
import { Live } from './live.js';
import { $, h } from '../shared/dom.js';
import { getLang, t } from '../shared/i18n.js';
import { closeDialogs, joinErrorText, openOptions } from './view-dialogs.js';
import { addLog, announce, hideError, showError } from './notes.js';
import { clearHint, noteLeavers, openResult, renderTablePanel } from './view-panels.js';
import { replay, syncShowPanel, waitContinue } from './replay.js';
import { cribAfter, dispFromView, emptyDisplay } from '../shared/display.js';
import { forgetGame, loadGame, loadSession, recordResult, saveGame, saveName } from '../shared/saved.js';
import {
  S, apiOptions, clearChoice, closeShow, follow, isPeople, leaveShown, leftTable, markShownOnce, me, nextActionRef, offerState,
  replayDone, setAwaiting, setBusy, setDisplay, setGame, setInvites, setLive, setLiveStatus, setOffline, setPumping, showState,
  shownSteps, spectating, startGame, takePending, templates,
} from './store.js';
import { bringActionIntoView, render, renderCenter, renderControls, renderHand } from './view-table.js';
import { levelLabel, variantLabel } from './words.js';
import { noticeTurn } from './yourturn.js';
import { nextOfMatch } from './nextgame.js';
import { createGame, here, isLocalGame, sourceOf } from './source.js';

export const LIVE_ANSWER_MS = 4000;  // an action sent over the socket and not answered by then goes over HTTP
export const LIVE_STATE_MS = 2500;   // the state of an action stored through the socket, not come by then, is read

/**
 * Send the seat's choice as the action its templates allow (actions.js); a choice they do not
 * allow (a card it may not play, a claim out of range, the wrong number of cards) is not sent.
 * @param {import('./actions.js').Action} choice
 */
export async function send(choice) {
  const action = actionFor(templates(), choice);
  if (!S.game || !S.state || S.busy || !action) return;
  setBusy(true);
  clearHint();
  hideError();
  renderHand();
  renderControls();
  renderCenter();
  const body = { ...action, version: S.state.version };
  let st;
  const people = isPeople();
  const game = S.game;
  try {
    const answer = people ? await actLive(body) : null;
    if (answer instanceof api.ApiError) throw answer;
    if (answer) {  // stored: its state comes over the socket like every seat's
      clearChoice();
      expectVersion(answer.version);
      return;
    }
    if (S.game !== game) return;  // the page went to another game meanwhile
    st = await sourceOf(game).act(body);
  } catch (err) {
    setBusy(false);
    if (api.CONFLICTS.has(err.code)) {
      await refresh();
      // A muggins call beaten by another opponent's: the refreshed state shows whose call won.
      if (action.type === 'muggins' || action.type === 'pass') announce(t('mugginsLate'));
      return;
    }
    showError(err);
    render(false);
    return;
  }
  clearChoice();
  if (people) {
    offer(st);
    return;
  }
  await receive(st, true);
}

/** Send an action over the live socket: resolves with its answer (`{type: 'acted', version}`, or a
 * refusal as an ApiError, worded like one over HTTP), or with null when it must go over HTTP: no
 * live socket, or the socket closed before answering, or no answer in time.  The action holds the
 * version it was chosen at, so sending it again over HTTP cannot apply it twice (stale if it was). */
export function actLive(body) {
  return new Promise((resolve) => {
    if (!S.live) { resolve(null); return; }
    const ref = nextActionRef();
    const done = (answer) => {
      if (!S.awaiting || S.awaiting.ref !== ref) return;
      clearTimeout(S.awaiting.timer);
      setAwaiting(null);
      resolve(answer);
    };
    setAwaiting({ ref, done, timer: setTimeout(() => done(null), LIVE_ANSWER_MS) });
    if (!S.live.sendAction(body, ref)) done(null);
  });
}

/** The socket's answer to an action (a late one, after the action went over HTTP, is dropped). */
export function liveReply(data) {
  if (!S.awaiting || String(data.ref) !== S.awaiting.ref) return;
  S.awaiting.done(data.type === 'acted' ? data : new api.ApiError(data.status || 400, data.error || '', data));
}

/** After an action stored through the socket: its state comes over the socket; if it has not come
 * after a while (the broker away), it is read over HTTP. */
export function expectVersion(version) {
  if (!S.game) return;
  const id = S.game.id;
  setTimeout(async () => {
    if (!S.game || S.game.id !== id || (S.offered && S.offered.id === id && S.offered.version >= version)) return;
    try {
      offer(await api.getGame(id, S.game.token));
    } catch (err) {
      setBusy(false);
      showError(err);
      render(false);
    }
  }, LIVE_STATE_MS);
}

/** A state of a table with people (pushed, or the answer to our action): shown in order, newest
 * last, replaying only the events not shown yet. */
export function offer(raw) {
  // Someone chose to play again: every page goes to the new game.  A match's next game, made by
  // the server as the game ends: every page goes there too, once it has shown how this one ended
  // (its last steps, the show held at Continue; receive and pump go on from there).
  const shownEnd = !S.pumping && !S.busy && !!S.state && S.state.id === raw.id && S.state.over;
  if (raw.rematch && S.game && !S.game.watch && raw.id === S.game.id && (!nextOfMatch(raw) || shownEnd)) {
    followRematch(raw.rematch);
    return;
  }
  if (raw.rematch_watch && S.game && S.game.watch && raw.id === S.game.id) {
    followWatch(raw.rematch_watch);  // the spectators go too, by the new game's watch code
    return;
  }
  const st = raw;
  noteLeavers(S.state, st);
  if (!offerState(st)) return;
  noticeTurn(st);  // before any replay
  if (S.pumping) renderTablePanel();  // the seats now, even while the page holds at "Continue"
  pump();
}

export async function pump() {
  if (S.pumping) return;
  setPumping(true);
  try {
    for (let next = takePending(); next; next = takePending()) {
      const { st, fresh } = next;
      if (!fresh) {  // the same step again: nothing to replay
        showState(st);
        if (!S.busy) { syncShowPanel(st); render(false); bringActionIntoView(); markShown(st); }
        renderTablePanel();
        continue;
      }
      const epoch = S.epoch;
      await receive({ ...st, events: fresh }, true);
      if (epoch !== S.epoch) continue;  // the page went to another game meanwhile
      showState(st);
      renderTablePanel();
    }
    // The end shown, and the match's next game named meanwhile (while the page held at the show).
    const next = nextOfMatch(S.state);
    if (next && !S.busy) followRematch(next);
  } finally {
    setPumping(false);
  }
}

export function openLive() {
  closeLive();
  if (!S.game || !(isPeople() || S.game.watch)) return;
  setLive(new Live(S.game.id, S.game.token, {
    watch: S.game.watch || '',
    onState: (st) => offer(st),
    onStatus: (status) => { setLiveStatus(status); renderTablePanel(); },
    onError: (data) => { console.warn(data.error); if (data.code === 'too_many') showError(new api.ApiError(429, data.error || '', data)); },
    onReply: liveReply,
    onClosed: () => { if (S.awaiting) S.awaiting.done(null); },  // unanswered: it goes over HTTP
    onChat: (data) => { if (chat.panel) chat.panel.receive(data); else chat.early.push(data); },
  }));
  openChat();
}

/** The table's live socket closed (none any more). */
function closeLive() {
  if (S.live) S.live.close();
  setLive(null);
  closeChat();
}

/** The chat panel of a table between people (view-chat.js, loaded at such tables only), and the
 * chat's messages that came before it was loaded. */
const chat = {
  /** @type {import('./view-chat.js').ChatPanel | null} */ panel: null,
  /** @type {Record<string, any>[]} */ early: [],
};

function openChat() {
  const game = S.game;
  if (!game || !isPeople()) return;
  import('./view-chat.js').then(({ mountChat }) => {
    if (S.game !== game || chat.panel || !S.live) return;  // another game meanwhile
    chat.panel = mountChat({
      gameId: game.id,
      mySeat: game.watch ? -1 : me(),
      seats: () => (S.state && S.state.seats) || [],
      send: (message) => !!S.live && S.live.sendMessage(message),
    });
    for (const data of chat.early.splice(0)) chat.panel.receive(data);
  }).catch((err) => console.warn(err));
}

function closeChat() {
  if (chat.panel) chat.panel.close();
  chat.panel = null;
  chat.early = [];
}

export async function receive(st, animate) {
  noticeTurn(st);
  const epoch = S.epoch;
  const first = !S.state;
  showState(st);
  setBusy(true);
  if (first || !animate || !S.D) {
    setDisplay(dispFromView(st.view, cribAfter(st.events, S.D)));
    closeShow();
    render(false);
  } else {
    try {
      await replay(st.events || [], st);
    } catch (err) {
      console.error(err);
    }
    if (epoch !== S.epoch) return;  // the page went to another game meanwhile
  }
  showState(st);
  setDisplay(dispFromView(st.view, cribAfter(st.events, S.D)));
  if (st.over && S.show && !S.continueResolve) {
    await waitContinue();
    if (epoch !== S.epoch) return;
    closeShow();
  }
  replayDone();
  syncShowPanel(st);
  render(true);
  if (st.over) {
    if (!spectating(st)) recordResult(st);
    // A match goes on: its next game rather than this one's result (a later state may name it:
    // pump follows it then, and the result's dialog closes).
    const next = nextOfMatch(S.pending && S.pending.id === st.id ? S.pending : st);
    if (next) followRematch(next);
    else openResult();
  } else {
    bringActionIntoView();
    markShown(st);
  }
}

export async function refresh() {
  if (!S.game) return;
  try {
    const st = S.game.watch ? await api.watchGame(S.game.watch) : await sourceOf(S.game).state();
    shownSteps(st.events);
    await receive(st, false);
  } catch (err) {
    showError(err);
  }
}

export async function newGame() {
  setBusy(true);
  hideError();
  clearHint();
  closeDialogs();
  closeShow();
  // The game shown is left: a replay of it still running stops, a wait for "Continue" ends.
  leaveShown();
  closeLive();
  $('local-note').hidden = true;
  try {
    const created = await createGame(apiOptions(S.options, !!loadSession()), { offline: S.offline, chosen: !!S.options.here });
    if (created.offline !== null) setOffline(created.offline);
    const game = { id: created.id, token: created.token, seat: 0 };
    startGame(game);
    saveGame(game);
    setInvites(created.invites);
    $('log').textContent = '';
    addLog(t('newGameLog', { variant: variantLabel(S.options.variant) }));
    if (created.note) announce(t(created.note));
    showState(created.state);
    setDisplay(emptyDisplay(created.state.view));
    setBusy(true);
    render(false);
    shownSteps(created.state.events);
    await receive(created.state, true);
    renderTablePanel();
    openLive();
  } catch (err) {
    setBusy(false);
    showError(err);
  }
}

/** Open the review page (review.js) on this game's record, reviewing this page's seat. */
export async function reviewGame() {
  const game = S.game;
  if (!game) return;
  try {
    await openReview({ id: game.id, token: game.token, seat: me() });
  } catch (err) {
    showError(err);
  }
}

/**
 * Open the review page on a finished game's record (read with the seat's token), reviewing that
 * seat: the record goes through this tab's sessionStorage, not the address.  Throws an ApiError.
 * @param {{id: string, token: string, seat: number}} game
 */
export async function openReview(game) {
  const text = await sourceOf(game).recordText();
  const local = isLocalGame(game.id);
  sessionStorage.setItem('cribbage.review', JSON.stringify({ text, seat: game.seat, fromGame: true, ...(local ? { local } : {}) }));
  location.assign(`/review?lang=${getLang()}`);
}

export async function downloadRecord() {
  const game = S.game;
  if (!game) return;
  try {
    // As the server wrote it: parsed and written again, its 64-bit seeds would be rounded.
    const blob = new Blob([await sourceOf(game).recordText()], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `cribbage-${game.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    showError(err);
  }
}

/** Tell the server this page shows the seat's decision now (docs/api.md, "Turn clock"): the seat's
 * turn clock runs from now.  Once per version, when the clock runs for this seat; over the live
 * socket when it is open, else over HTTP. */
export function markShown(st) {
  if (!S.game || spectating(st) || st.over || !st.turn_clock || st.turn_clock.seat !== st.seat) return;
  if (!hasTurn(st.actions || [])) return;
  const key = `${st.id}:${st.version}`;
  if (!markShownOnce(key)) return;
  if (S.live && S.live.sendSeen(st.version)) return;
  api.seen(S.game.id, S.game.token, st.version).catch((err) => console.warn(err.message));
}

/** Leave the table, after asking: the seat is the server's to give (to a computer, or open again). */
export async function leaveTable() {
  const st = S.state, game = S.game;
  if (!st || !game) return;
  const takeover = st.options && st.options.takeover;
  const question = takeover ? t('leaveConfirmComputer', { level: levelLabel(takeover) }) : t('leaveConfirmWait');
  if (!window.confirm(question)) return;
  try {
    await api.leave(game.id, game.token);
  } catch (err) {
    showError(err);
    return;
  }
  closeLive();
  forgetGame();
  leftTable();  // the table stays on view, nothing to do at it
  render(false);
  renderTablePanel();
  addLog(t('youLeft'));
  announce(t('youLeft'));
  openOptions(true);
}

/** A watch link's page: the table as every seat sees it, read-only, never saved as one's own game.
 * An old link of a table whose people played again leads to their latest game. */
export async function enterWatch(code) {
  let raw;
  try {
    raw = await api.watchGame(code);
  } catch (err) {
    showError(err);
    return;
  }
  if (raw.rematch_watch) {
    await followWatch(raw.rematch_watch, 'watchingLog');
    return;
  }
  await enterGame({ id: raw.id, token: '', watch: code }, raw, 'watchingLog');
}

/** A spectator goes where the people went ("play again"): the new game's watch code, which the
 * page's address then holds (a reload stays with the new game). */
export async function followWatch(code, logKey = 'rematchLog') {
  if (S.following === code) return;
  follow(code);
  try {
    const raw = await api.watchGame(code);
    if (raw.rematch_watch) {  // they played again once more meanwhile
      follow(null);
      await followWatch(raw.rematch_watch, logKey);
      return;
    }
    closeDialogs();
    history.replaceState(null, '', `/watch/${encodeURIComponent(code)}${location.search}`);
    await enterGame({ id: raw.id, token: '', watch: code }, raw, logKey);
  } catch (err) {
    follow(null);
    showError(err);
  }
}

export async function submitJoin(event) {
  event.preventDefault();
  const code = $('join-code').value.trim();
  const name = $('join-name').value.trim();
  if (!code) { $('join-code').focus(); return; }
  if (!name) { $('join-name').focus(); return; }
  $('join-submit').disabled = true;
  try {
    // A table asking to be rated: its game is rated only if accepted here (view-dialogs.js ratedJoin).
    const joined = await api.join(code, name, !!$('join-rated')?.checked);
    saveName(name);
    // The invitation's address is no longer needed: the page is the game's, its token stored.
    if (location.pathname !== '/') history.replaceState(null, '', '/');
    const dlg = $('join-dialog');
    dlg.dataset.fromLink = '';
    dlg.close();
    await enterGame({ id: joined.id, token: joined.token, seat: joined.seat }, joined.state);
  } catch (err) {
    const box = $('join-error');
    box.hidden = false;
    box.textContent = joinErrorText(err);
  } finally {
    $('join-submit').disabled = false;
  }
}

/** Go to the rematch of this game ("play again"): the same token acts at the same seat there. */
export async function followRematch(id) {
  if (S.following === id || !S.game) return;
  follow(id);
  try {
    const raw = await api.getGame(id, S.game.token);
    closeDialogs();
    await enterGame({ ...S.game, id }, raw, 'rematchLog');
  } catch (err) {
    follow(null);
    showError(err);
  }
}

export async function playAgain() {
  const game = S.game;
  if (!game) return;
  try {
    const again = await api.rematch(game.id, game.token);
    await followRematch(again.id);
  } catch (err) {
    showError(err);
  }
}

export async function enterGame(game, raw, logKey = 'joinedLog') {
  closeLive();
  leaveShown();
  startGame(game);
  if (!game.watch) saveGame(game);  // a spectator's game is never saved as one's own
  clearHint();
  hideError();
  $('log').textContent = '';
  shownSteps(raw.events);
  await receive(raw, false);
  renderTablePanel();
  addLog(t(logKey));
  openLive();
}

export async function resumeOrNew(welcome = false) {
  const saved = loadGame();
  if (saved && isLocalGame(saved.id)) {
    if (await (await here()).resumeLocal(saved)) return;
  } else if (saved && saved.id && saved.token) {
    setGame(saved);
    try {
      const st = await api.getGame(saved.id, saved.token);
      shownSteps(st.events);
      await receive(st, false);
      renderTablePanel();
      openLive();
      addLog(t('resumed'));
      return;
    } catch (err) {
      if (!['not_found', 'unauthorized', 'forbidden'].includes(err.code)) {  // else a game of the past
        showError(err);
        return;
      }
      forgetGame();
      setGame(null);
    }
  }
  if (welcome) {
    openOptions(true, true);
    return;
  }
  await newGame();
}
