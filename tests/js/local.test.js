// @ts-check
// A game against the computer in this browser (game/local.js, game/source.js): its id, where a
// new game is played, the record taken out of a saved game's text as text (its 64-bit seeds intact), and the
// upload's body written around it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { memberText, newLocalId, recordTextOf, uploadBody } from '../../src/cribbage/web/static/game/local.js';
import { isLocalGame, playsHere } from '../../src/cribbage/web/static/game/source.js';

const SEED = '18446744073709551557';  // above 2**53: JSON.parse would round it
const RECORD = `{"format": "cribbage-record", "version": 1, "seed": ${SEED}, "names": ["You", "Computer"], "actions": [[0, {"type": "discard"}]]}`;
const SAVED = `{"id": "local-00ff", "options": {"level": "normal", "names": ["\\"record\\": {}", "a\\\\"], "seed": null}, "record": ${RECORD}}`;

describe('a game played in this browser', () => {
  it('has an id of its own', () => {
    const id = newLocalId(() => new Uint8Array([0, 1, 2, 171, 255, 16, 9, 10]));
    assert.equal(id, 'local-000102abff10090a');
    assert.ok(isLocalGame(id));
    assert.ok(isLocalGame(newLocalId()));
    assert.notEqual(newLocalId(), newLocalId());
    assert.ok(!isLocalGame('abc123') && !isLocalGame(null) && !isLocalGame(undefined));
  });
  it('is played here against the computer, offline or when chosen, where the engine runs', () => {
    const here = (o) => playsHere({ people: false, offline: false, chosen: false, supported: true, ...o });
    assert.equal(here({}), false);  // online: the server, unless chosen
    assert.equal(here({ chosen: true }), true);
    assert.equal(here({ offline: true }), true);
    assert.equal(here({ offline: true, people: true }), false);  // people need the server
    assert.equal(here({ chosen: true, people: true }), false);
    assert.equal(here({ offline: true, supported: false }), false);  // no Worker or WebAssembly
  });
});

describe('the record of a saved game', () => {
  it('is taken out as it was written, its seeds intact', () => {
    assert.equal(recordTextOf(SAVED), RECORD);
    assert.ok(recordTextOf(SAVED)?.includes(SEED));
  });
  it('is not fooled by a name holding the member\'s name', () => {
    assert.equal(memberText(SAVED, 'id'), '"local-00ff"');
    assert.equal(memberText(SAVED, 'options'), '{"level": "normal", "names": ["\\"record\\": {}", "a\\\\"], "seed": null}');
    assert.deepEqual(JSON.parse(/** @type {string} */ (memberText(SAVED, 'options'))).names, ['"record": {}', 'a\\']);
  });
  it('is null when the saved text is not a saved game', () => {
    for (const bad of ['', 'null', '[]', '{"id": "x"}', '{"record": 3}', '{"record": "text"}', '{"record": {"a": 1}', '{"id": "x', 'garbage',
      /** @type {any} */ (null)]) {
      assert.equal(recordTextOf(bad), null, String(bad));
    }
    assert.equal(memberText('{"a": 1, "b": [1, {"c": 2}], "c": 3}', 'c'), '3');  // top level only
    assert.equal(memberText('{"a": {"b": 1}}', 'b'), null);
  });
});

describe('the upload of a finished game', () => {
  it('sends the record as its own text', () => {
    const body = uploadBody({ level: 'normal', manual: true, names: ['Ann'] }, RECORD);
    assert.equal(body, `{"options":{"level":"normal","manual":true,"names":["Ann"]},"record":${RECORD}}`);
    assert.ok(body.includes(SEED));
    assert.deepEqual(JSON.parse(body).options, { level: 'normal', manual: true, names: ['Ann'] });
  });
});
