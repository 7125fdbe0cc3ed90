// @ts-check
// The store's named updates (store.js): every change of the store S goes through them, and no
// other module of the page writes S.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import {
  S, chooseCards, clearChoice, closeShow, follow, forgetBoard, leaveShown, leftTable, markShownOnce, nextActionRef, openShow,
  putAwaitingEntry, putCountForm, putShowEntry, replayDone, setBoard, setHighlight, setLive, setLiveStatus, shownSteps, skipReplay,
  startGame, toggleCard, updateDisplay, updateEntry, waitForContinue,
} from '../../src/cribbage/web/static/game/store.js';

const STATIC = new URL('../../src/cribbage/web/static/', import.meta.url);

describe('no module but the store writes S', () => {
  // An assignment to a field of S (S.x = ..., S.x += ...), a change of one of its sets or lists
  // (S.selected.clear(), S.show.entries.push(...)) or Object.assign(S, ...).
  const WRITE = /\bS\.[A-Za-z]+(?:\.[A-Za-z]+)*\s*(?:[+-]?=(?!=)|\+\+|--)|\bS\.[A-Za-z]+(?:\.[A-Za-z]+)*\.(?:clear|add|delete|push|pop|splice)\(|Object\.assign\(\s*S\b/;
  it('finds such writes where they are', () => {
    for (const line of ['S.busy = true;', 'S.actions += 1;', 'S.selected.clear();', 'S.show.entries.push(e);', 'Object.assign(S, { a });']) {
      assert.match(line, WRITE, line);
    }
    for (const line of ['if (S.busy === true) go();', 'const x = S.state;', 'S.continueResolve();', 'S.board.place(a, b);']) {
      assert.doesNotMatch(line, WRITE, line);
    }
  });
  it('in every module of the game page', () => {
    // The game page's modules are its folder's (game/) and the shared ones (shared/).
    const modules = ['game', 'shared'].flatMap((folder) => readdirSync(new URL(folder, STATIC))
      .filter((name) => name.endsWith('.js')).map((name) => `${folder}/${name}`)).filter((name) => name !== 'game/store.js');
    assert.ok(modules.includes('game/controller.js') && modules.includes('game/replay.js'));
    const writes = modules.flatMap((name) => readFileSync(new URL(name, STATIC), 'utf8').split('\n')
      .map((line, i) => [`${name}:${i + 1}`, line]).filter(([, line]) => WRITE.test(line)));
    assert.deepEqual(writes, []);
  });
});

describe('a new game', () => {
  it('starts from nothing shown and nothing chosen', () => {
    Object.assign(S, { state: { id: 'old' }, D: {}, pending: { id: 'old' }, show: { entries: [] }, hint: {}, playCard: '5H', cursor: 2 });
    chooseCards(['AC', '2C']);
    startGame({ id: 'g', token: 't', seat: 1 });
    assert.deepEqual(S.game, { id: 'g', token: 't', seat: 1 });
    assert.deepEqual([S.state, S.D, S.pending, S.show, S.hint, S.playCard, S.cursor, S.selected.size], [null, null, null, null, null, null, -1, 0]);
  });
  it('remembers the steps shown by their index', () => {
    shownSteps([{ index: 4 }, { index: 9 }]);
    assert.equal(S.lastStep, 9);
    shownSteps([]);
    assert.equal(S.lastStep, -1);
  });
  it('leaving the table leaves it on view with nothing to do', () => {
    S.game = { id: 'g', token: 't' };
    S.state = { id: 'g', version: 3, actions: [{ type: 'pass' }] };
    const before = S.state;
    leftTable();
    assert.equal(S.game, null);
    assert.deepEqual(S.state, { id: 'g', version: 3, actions: [] });
    assert.deepEqual(before.actions, [{ type: 'pass' }], 'the STATE received is not changed');
  });
});

describe('the choice of cards', () => {
  it('toggles a card within the discard, and is cleared with the cursor', () => {
    clearChoice();
    toggleCard('AC', 2);
    toggleCard('5H', 2);
    toggleCard('KS', 2);
    assert.deepEqual([...S.selected], ['5H', 'KS']);
    const chosen = S.selected;
    chooseCards(['9D']);
    assert.deepEqual([...chosen], ['5H', 'KS'], 'a new set each time: a view holding the old one sees no change');
    S.cursor = 3;
    clearChoice();
    assert.deepEqual([S.selected.size, S.cursor], [0, -1]);
  });
  it('lights the cards of a combination, and none', () => {
    setHighlight(['5H', '5C']);
    assert.deepEqual([...S.highlight], ['5H', '5C']);
    setHighlight();
    assert.equal(S.highlight.size, 0);
  });
});

describe('the replay', () => {
  it('updates the display it draws, which may no longer be the one shown', () => {
    const D = /** @type {any} */ ({ scores: [1, 2], prev: [0, 0] });
    S.D = /** @type {any} */ ({ scores: [0, 0] });
    updateDisplay(D, { scores: [3, 2] });
    assert.deepEqual([D.scores, S.D && S.D.scores], [[3, 2], [0, 0]]);
  });
  it('waits for Continue once; skipping ends with the wait and the replay', () => {
    let went = 0;
    skipReplay();
    waitForContinue(() => { went += 1; });
    assert.equal(typeof S.continueResolve, 'function');
    if (S.continueResolve) S.continueResolve();
    assert.deepEqual([went, S.continueResolve, S.skip], [1, null, false]);
    skipReplay();
    S.busy = true;
    replayDone();
    assert.deepEqual([S.busy, S.skip], [false, false]);
  });
  it('leaving the game shown stops its replay and ends its wait', () => {
    let went = false;
    waitForContinue(() => { went = true; });
    const epoch = S.epoch;
    leaveShown();
    assert.deepEqual([went, S.epoch, S.continueResolve], [true, epoch + 1, null]);
    leaveShown();
    assert.equal(S.epoch, epoch + 2, 'nothing to end: only the epoch');
  });
});

describe('the show panel', () => {
  /** @returns {Record<string, any>} */
  const count = (seat, what, more = {}) => ({ seat, what, cards: [], combos: [], notes: [], ...more });
  it('opens once, and closes', () => {
    closeShow();
    const show = openShow();
    assert.equal(openShow(), show);
    closeShow();
    assert.equal(S.show, null);
  });
  it("puts a count in place of the form, and of the same count that awaited the muggins decision", () => {
    closeShow();
    putCountForm(count(1, 'hand', { form: 'count' }));
    putCountForm(count(1, 'crib', { form: 'count' }));
    assert.deepEqual(openShow().entries.map((e) => e.what), ['crib'], 'one form at a time');
    assert.equal(putAwaitingEntry(count(0, 'hand', { awaiting: true, claim: 6 })), true);
    assert.equal(putAwaitingEntry(count(0, 'hand', { awaiting: true, claim: 6 })), false, 'shown already');
    putShowEntry(count(2, 'hand'));
    putShowEntry(count(0, 'hand', { points: 8 }));
    assert.deepEqual(openShow().entries.map((e) => [e.seat, e.what, !!e.awaiting]), [[2, 'hand', false], [0, 'hand', false]]);
  });
  it('an entry steps through its combinations and takes notes', () => {
    const entry = count(0, 'hand');
    putShowEntry(entry);
    const notes = entry.notes;
    updateEntry(entry, { revealed: true, step: 2 });
    updateEntry(entry, {}, 'Muggins!');
    assert.deepEqual([entry.revealed, entry.step, entry.notes], [true, 2, ['Muggins!']]);
    assert.deepEqual(notes, [], 'a new list of notes');
  });
});

describe('the transport', () => {
  it('numbers the actions sent over the socket', () => {
    const first = Number(nextActionRef());
    assert.equal(nextActionRef(), String(first + 1));
  });
  it('tells the server once that a decision is shown', () => {
    assert.equal(markShownOnce('g:5'), true);
    assert.equal(markShownOnce('g:5'), false);
    assert.equal(markShownOnce('g:6'), true);
  });
  it('a socket closed leaves no status', () => {
    setLive(/** @type {any} */ ({}));
    setLiveStatus('live');
    setLive(null);
    assert.deepEqual([S.live, S.liveStatus], [null, '']);
  });
  it('follows one game at a time, and forgets the board to draw it again', () => {
    follow('abc');
    assert.equal(S.following, 'abc');
    follow(null);
    setBoard(/** @type {any} */ ({ id: 'board' }), '121/2/en/2/0');
    forgetBoard();
    assert.equal(S.boardKey, '');
  });
});
