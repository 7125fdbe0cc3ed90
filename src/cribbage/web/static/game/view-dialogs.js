// @ts-check
// The game page's dialogs: the options (and the welcome), the lobby, the invitation and the
// statistics.

import * as api from '../shared/api.js';
import { $, h } from '../shared/dom.js';
import { durationText, errorText, seatLabel, t } from '../shared/i18n.js';
import { statsTable } from './view-panels.js';
import { S, defaultLevel, levels, setMeta, setOffline, setVariants, variantPlayers } from './store.js';
import { forgetSession, loadLists, loadName, loadSession, saveList, saveName } from '../shared/saved.js';
import { canRunEngine } from './source.js';
import { countingText, levelLabel, variantLabel } from './words.js';

// ------------------------------------------------------------------ dialogs

/** The account's button of the top bar: "Sign in", or the name signed in (view-account.js). */
export function labelAccount() {
  const button = $('btn-account');
  if (!button) return;
  button.removeAttribute('aria-busy');
  const session = loadSession();
  if (session) {
    delete button.dataset.i18n;
    button.textContent = `${session.name} ▾`;
  } else {
    button.dataset.i18n = 'account.signIn';
    button.textContent = t('account.signIn');
  }
}

/**
 * At the page's load: the session kept here is asked about (GET /api/accounts/me) before its name
 * is shown; one the server refuses (signed out everywhere, expired, its account deleted) is
 * forgotten, and the button says "Sign in".  Without an answer (offline) the name kept is shown:
 * the next request finds out.  Until the answer the button is busy, its name not shown.
 */
export async function checkSession() {
  const session = loadSession();
  const button = $('btn-account');
  if (!session || !button) { labelAccount(); return; }
  delete button.dataset.i18n;
  button.textContent = '…';
  button.setAttribute('aria-busy', 'true');
  try {
    await api.me(session.token);
  } catch (err) {
    if (err instanceof api.ApiError && err.code === 'account.bad_session' && loadSession()?.token === session.token) forgetSession();
  }
  labelAccount();
}

export function closeDialogs() {
  for (const d of /** @type {NodeListOf<HTMLDialogElement>} */ (document.querySelectorAll('dialog[open]'))) d.close();
}

/** The variants of the server (GET /api/variants) with their facts; until they come, the chosen one. */
export async function loadVariants() {
  try {
    const variants = await api.getVariants();
    setVariants(variants);
    saveList('variants', variants);
    setOffline(false);
  } catch (err) {
    if (err instanceof api.ApiError && err.code === 'offline') setOffline(true);
    if (!S.variants) setVariants(loadLists().variants || null);  // offline: the server's, last read
  }
  if ($('options-dialog').open) fillVariantSelect();
}

/** The lists the server defines (GET /api/meta): the computer levels; until they come, the chosen one. */
export async function loadMeta() {
  try {
    const meta = await api.getMeta();
    setMeta(meta);
    saveList('meta', meta);
  } catch {
    if (!S.meta) setMeta(/** @type {any} */ (loadLists().meta || null));
  }
  if ($('options-dialog').open) {
    fillLevels();
    renderSeatChoices();
  }
}

/** The options' computer levels (radio buttons) and the takeover's, keeping what is chosen. */
export function fillLevels() {
  const form = $('options-form');
  const checked = form.querySelector('input[name="level"]:checked');
  const chosen = checked ? checked.value : S.options.level || defaultLevel();
  const box = $('opt-levels');
  for (const label of [...box.querySelectorAll('label')]) label.remove();
  for (const level of levels()) {
    box.append(h('label', {}, h('input', { type: 'radio', name: 'level', value: level, checked: level === chosen }), ' ',
      h('span', { 'data-i18n': level, text: t(level) })));
  }
  const takeover = $('opt-takeover');
  const kept = takeover.value;
  for (const option of [...takeover.querySelectorAll('option')]) if (option.value) option.remove();
  takeover.append(...levels().map((level) => h('option', { value: level, 'data-i18n': `level.${level}`, text: levelLabel(level) })));
  takeover.value = levels().includes(kept) ? kept : '';
}

export function fillVariantSelect() {
  const sel = $('opt-variant');
  const value = sel.value || S.options.variant;
  const names = S.variants ? Object.keys(S.variants) : [value];
  sel.textContent = '';
  for (const name of names) sel.append(h('option', { value: name, text: variantLabel(name) }));
  sel.value = names.includes(value) ? value : names[0];
  describeVariant();
}

/** The chosen variant's description, and its own target in the target's default choice. */
export function describeVariant() {
  const name = $('opt-variant').value;
  const facts = S.variants && S.variants[name];
  $('variant-desc').textContent = t(`variantDesc.${name}`);
  renderSeatChoices();
  $('opt-target-default').textContent = t('targetDefault', { n: facts ? facts.target : null });
}

export function openOptions(startMode, welcome = false) {
  const form = $('options-form');
  if (!S.variants) loadVariants();
  if (!S.meta) loadMeta();
  fillVariantSelect();
  const o = S.options;
  for (const input of form.querySelectorAll('input[name="level"]')) input.checked = false;
  fillLevels();
  for (const name of ['level', 'counting', 'dealer', 'speed']) {
    const input = form.querySelector(`input[name="${name}"][value="${o[name] || (name === 'level' ? defaultLevel() : '')}"]`);
    if (input) input.checked = true;
  }
  if ([...$('opt-variant').options].some((opt) => opt.value === o.variant)) $('opt-variant').value = o.variant;
  $('opt-target').value = o.target;
  renderSeatChoices(o.seats || []);
  $('opt-name').value = o.name || loadName();
  $('opt-public').checked = !!o.public;
  // A rated table is a signed-in creator's: the choice is offered to an account only.
  const signedIn = !!loadSession();
  $('opt-rated-box').hidden = !signedIn;
  $('opt-rated').checked = false; // asked for each table: a rated game is never a leftover choice
  $('opt-takeover').value = o.takeover || '';
  $('opt-clock').value = o.clock || '';
  // Online, off by default: the engine starts in seconds.
  $('opt-here-box').hidden = !canRunEngine() || S.offline;
  $('opt-here').checked = !!o.here;
  $('opt-offline-note').hidden = !S.offline;
  describeVariant();
  $('opt-start').classList.toggle('primary', true);
  const dlg = $('options-dialog');
  dlg.dataset.mode = startMode ? 'start' : 'edit';
  // The welcome: the same options, titled as a greeting; its Start starts a game, Escape only closes it.
  dlg.dataset.welcome = welcome ? '1' : '';
  $('options-title').textContent = welcome ? t('welcomeTitle') : t('optionsTitle');
  $('welcome-note').hidden = !welcome;
  $('opt-save').hidden = welcome;
  $('opt-cancel').hidden = welcome;
  // Without a game of one's own (the first visit, or after leaving a table) the lobby and an
  // invitation are a choice too, rather than a game against the computer.
  $('opt-lobby').hidden = !welcome;
  $('opt-join').hidden = !welcome;
  dlg.showModal();
  (startMode ? $('opt-start') : form.querySelector('input[name="level"]:checked'))?.focus();
}

/**
 * The choice of who sits in each other seat (a level, or a person), for the variant chosen.
 * @param {string[] | null} [values]  the choices to show (else those shown, if as many)
 */
export function renderSeatChoices(values = null) {
  const box = $('opt-seats');
  const name = $('opt-variant').value || S.options.variant;
  const n = variantPlayers(name) ?? 0;  // no choices until the variants' facts come
  // The choices carry over only to a variant of as many seats: another starts with computers.
  let current = values || [...box.querySelectorAll('select')].map((sel) => sel.value);
  if (current.length !== n - 1) current = [];
  const partnerships = !!(S.variants && S.variants[name] && S.variants[name].partnerships);
  box.textContent = '';
  for (let seat = 1; seat < n; seat++) {
    const id = `opt-seat-${seat}`;
    const sel = h('select', { id, name: `seat-${seat}`, 'data-seat': seat },
      h('option', { value: '', text: t('computerChosen') }),
      levels().map((lv) => h('option', { value: lv, text: levelLabel(lv) })),
      h('option', { value: 'human', text: t('person'), disabled: S.offline }));
    sel.value = current[seat - 1] || '';
    sel.addEventListener('change', togglePeopleOptions);
    const label = partnerships && seat === 2 ? `${t('seatN', { n: seat + 1 })} (${t('partner')})` : t('seatN', { n: seat + 1 });
    box.append(h('div', { class: 'seat-choice' }, h('label', { for: id, text: label }), sel));
  }
  togglePeopleOptions();
}

export function togglePeopleOptions() {
  const chosen = [...$('opt-seats').querySelectorAll('select')].map((sel) => sel.value);
  const people = chosen.some((value) => value === 'human');
  $('opt-people').hidden = !people;
  // The "computer" dealer is the seat on the dealer's left (seat 2): a computer only when one sits there.
  const label = $('opt-dealer-left');
  label.textContent = chosen.length === 1 && chosen[0] !== 'human' ? t('dealerComputer') : t('dealerLeft');
}

/** What the invitation opens, before joining (GET /api/join/{code}): the seat, the table's
 * variant, target and counting, and who sits there. */
export async function previewJoin(code) {
  const box = $('join-table');
  code = code.trim();
  box.dataset.code = code;
  box.textContent = '';
  box.hidden = !code;
  if (!code) return;
  let tb;
  try {
    tb = await api.invitation(code);
  } catch (err) {
    if (box.dataset.code !== code) return;
    box.append(h('p', { class: 'error', text: joinErrorText(err) }));
    return;
  }
  if (box.dataset.code !== code) return;  // another code was typed meanwhile
  const o = tb.options || {};
  const seats = h('ul', { class: 'join-seats' });
  for (const x of tb.seats) {
    const label = x.seat === tb.seat ? t('yourSeatN', { n: x.seat + 1 }) : seatLabel(x, tb.players);
    seats.append(h('li', { 'data-seat': x.seat, class: x.seat === tb.seat ? 'mine' : '' },
      x.kind === 'computer' ? `${label} (${levelLabel(x.level)})` : label));
  }
  box.append(
    h('p', { class: 'join-info', text: [variantLabel(tb.variant), t('targetN', { n: tb.target }), countingText(o),
      o.clock ? t('clockN', { time: durationText(o.clock) }) : null].filter(Boolean).join(' · ') }),
    h('p', { class: 'field-help', text: t('atTheTable') }), seats);
  if (o.rated) box.append(...ratedJoin());
}

/** What a table asking to be rated tells the joiner: signed in, the choice to accept it (checked,
 * sent as rated: true by submitJoin); a guest, that joining plays it unrated. */
function ratedJoin() {
  const note = h('p', { class: 'join-rated', text: t('ratedTable') });
  if (!loadSession()) return [note, h('p', { class: 'field-help', id: 'join-rated-guest', text: t('ratedGuest') })];
  return [note,
    h('label', {}, h('input', { type: 'checkbox', id: 'join-rated', checked: true }), ' ', h('span', { text: t('acceptRated') })),
    h('p', { class: 'field-help', text: t('ratedDecline') })];
}

export function openJoin(code = '', fromLink = false) {
  closeDialogs();
  const dlg = $('join-dialog');
  previewJoin(code);
  $('join-code').value = code;
  $('join-name').value = loadName();
  $('join-error').hidden = true;
  dlg.dataset.fromLink = fromLink ? '1' : '';
  dlg.showModal();
  (code ? $('join-name') : $('join-code')).focus();
}

/** The words of an invitation's refusals, by code. @type {Record<string, string>} */
const JOIN_WORDS = {
  not_found: 'joinUnknown', no_invitation: 'joinUnknown', seat_taken: 'joinTaken', stale: 'joinTaken',
  invalid: 'joinBadName', bad_request: 'joinBadName',
};

/** What the join dialog says of a refusal. */
export function joinErrorText(err) {
  const code = (err && err.code) || '';
  if (JOIN_WORDS[code]) return t(JOIN_WORDS[code]);
  if (api.RETRYABLE.has(code)) return errorText(err);  // a limit: its code and wait
  return t('said', { who: t('errorPrefix'), what: errorText(err) });
}

export async function openLobby() {
  closeDialogs();
  $('lobby-dialog').showModal();
  await fillLobby();
}

export async function fillLobby() {
  const body = $('lobby-body');
  body.textContent = t('loading');
  let data;
  try {
    data = await api.getLobby();
  } catch (err) {
    body.textContent = t('said', { who: t('errorPrefix'), what: errorText(err) });
    return;
  }
  body.textContent = '';
  if (!data.tables.length) { body.append(h('p', { class: 'field-help', id: 'lobby-empty', text: t('lobbyEmpty') })); return; }
  const list = h('ul', { class: 'lobby-list' });
  for (const tb of data.tables) {
    const o = tb.options || {};
    const counting = countingText(o);
    const free = tb.seats.filter((x) => !x.taken).length;
    const takeover = o.takeover ? t('takeoverLevel', { level: levelLabel(o.takeover) }) : t('takeoverNone');
    const info = [variantLabel(tb.variant), o.rated ? t('ratedMark') : null, t('targetN', { n: tb.target }), counting,
      o.clock ? t('clockN', { time: durationText(o.clock) }) : null, takeover, t('freeSeats', { n: free })].filter(Boolean).join(' · ');
    const waiting = tb.seats.filter((x) => x.kind === 'human' && x.taken).map((x) => x.name).join(t('listSep'));
    const seats = h('ul', { class: 'lobby-seats' });
    for (const x of tb.seats) {
      const label = seatLabel(x, tb.seats.length);
      const who = x.kind === 'computer' ? `${label} (${levelLabel(x.level)})` : label;
      seats.append(h('li', {}, h('span', { text: who }),
        !x.taken && x.code ? h('button', { type: 'button', class: 'primary lobby-join', 'data-code': x.code, text: t('joinSeat', { n: x.seat + 1 }), onclick: () => openJoin(x.code) }) : null));
    }
    list.append(h('li', { class: o.rated ? 'lobby-table rated' : 'lobby-table' },
      h('p', { class: 'lobby-info', text: info }),
      waiting ? h('p', { class: 'lobby-waiting', text: t('whoWaits', { names: waiting }) }) : null,
      seats));
  }
  body.append(list);
}

export function readOptions() {
  const form = $('options-form');
  const data = new FormData(form);
  const name = String(data.get('name') || '').trim();
  if (name) saveName(name);
  return {
    seats: [...$('opt-seats').querySelectorAll('select')].map((sel) => sel.value),
    public: data.get('public') === 'on',
    rated: !$('opt-rated-box').hidden && data.get('rated') === 'on',
    takeover: String(data.get('takeover') || ''),
    clock: String(data.get('clock') || ''),
    name,
    level: String(data.get('level') || ''),
    variant: String(data.get('variant') || 'standard'),
    target: String(data.get('target') || ''),
    counting: String(data.get('counting') || 'auto'),
    dealer: String(data.get('dealer') || 'cut'),
    speed: String(data.get('speed') || 'normal'),
    here: data.get('here') === 'on',
  };
}

export function openStats() {
  const body = $('stats-body');
  body.textContent = '';
  body.append(statsTable());
  $('stats-dialog').showModal();
}
