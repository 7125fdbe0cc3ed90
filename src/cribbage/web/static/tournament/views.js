// @ts-check
// The tournament page's views: each draws a part of a TOURNAMENT (docs/api.md, "Tournaments") as
// the server sent it, in the page's language.  They compute no rule: the standings, the bracket,
// the game points and the spread are the server's.  What a control does is the page's (page.js),
// handed in as `acts`.

import { $, h } from '../shared/dom.js';
import { getLang, t } from '../shared/i18n.js';
import {
  STAGES, currentTables, disputes, entersResult, entrantName, reviewable, scorecard, seatedAt, signedText,
} from './model.js';

/** A TOURNAMENT. @typedef {Record<string, any>} Tournament */
/**
 * What the page's controls do.
 * @typedef {{
 *   play: (gameId: string) => void, review: (gameId: string, seat: number) => void, scorecard: (entrant: number) => void,
 *   result: (table: Record<string, any>, winner: number, loserPoints: number | null) => void,
 *   checkIn: (number: number) => void, start: () => void, guest: (name: string, partner: string) => void,
 * }} Acts
 */

/** A name that opens its scorecard. @param {Tournament} T @param {number | null} n @param {Acts} acts */
function nameButton(T, n, acts) {
  if (n === null || n === undefined) return h('span', { class: 't-bye', text: t('tournament.bye') });
  const mine = T.you && T.you.entrant === n;
  return h('button', {
    type: 'button', class: `t-name${mine ? ' is-me' : ''}`, 'data-entrant': n, text: entrantName(T, n),
    onclick: () => acts.scorecard(n),
  });
}

/** The settings in a line. @param {Tournament} T */
export function settingsLine(T) {
  const s = T.settings;
  const parts = [
    t(`tournament.variant.${s.variant}`) === `tournament.variant.${s.variant}` ? s.variant : t(`tournament.variant.${s.variant}`),
    t(`tournament.venue.${s.venue}`),
    t('tournament.gamesN', { n: s.games }),
    t(`tournament.pairing.${s.pairing}`),
    s.best_of ? t(`tournament.bestOf.${s.best_of}`) : t('tournament.noPlayoffs'),
  ];
  if (s.consolation) parts.push(t('tournament.consolationN', { n: s.consolation }));
  if (s.rated) parts.push(t('tournament.rated'));
  parts.push(t('tournament.entrantsN', { n: (T.entrants || []).length, limit: s.limit }));
  if (s.starts && T.stage === 'registration') {
    const when = new Intl.DateTimeFormat(getLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(s.starts));
    parts.push(t('tournament.startsAt', { when }));
  }
  return parts.join(' · ');
}

/** The list of tournaments. @param {Record<string, any>[]} list */
export function renderList(list) {
  const box = $('t-list');
  box.replaceChildren(list.length ? h('ul', { class: 't-listing' }, list.map((x) => h('li', {},
    h('a', { href: `/tournaments/${encodeURIComponent(x.id)}`, text: x.name }),
    h('span', { class: `t-stage-chip stage-${x.stage}`, text: t(`tournament.stage.${x.stage}`) }),
    h('span', { class: 't-muted', text: `${t(`tournament.venue.${x.settings.venue}`)} · ${t('tournament.entrantsCount', { n: x.entrants })}` }),
  ))) : h('p', { class: 't-muted', text: t('tournament.none') }));
}

/** The entrants, by number; the director checks one in before the start. @param {Tournament} T @param {Acts} acts */
export function renderEntrants(T, acts) {
  $('t-entrants-card').hidden = T.stage !== 'registration';
  const director = T.you && T.you.director;
  $('t-entrants').replaceChildren(...(T.entrants || []).map((/** @type {any} */ e) => h('li', { 'data-entrant': e.number },
    h('span', { class: 't-num', text: `${e.number}.` }),
    h('span', { class: 't-entrant-name', text: e.name }),
    e.guest ? h('span', { class: 't-tag', text: t('tournament.guest') }) : null,
    e.partner_pending ? h('span', { class: 't-tag is-out t-pending', text: t('tournament.partnerPending', { name: e.players[1] }) }) : null,
    h('span', { class: `t-tag ${e.checked_in ? 'is-in' : 'is-out'}`, text: t(e.checked_in ? 'tournament.checkedInMark' : 'tournament.notCheckedIn') }),
    director && !e.checked_in && !e.partner_pending && T.stage === 'registration'
      ? h('button', { type: 'button', class: 'secondary no-print t-checkin', text: t('tournament.checkIn'), onclick: () => acts.checkIn(e.number) })
      : null)));
}

/** A table's key, the same at every reading: its stage, round, number and game. @param {Record<string, any>} table */
const tableKey = (table) => `${table.stage}/${table.round}/${table.number}/${table.game}`;

/** A decided table's result in words. @param {Tournament} T @param {Record<string, any>} table */
function resultText(T, table) {
  const o = table.outcome;
  if (table.second === null) return t('tournament.byeResult');
  if (!o) return table.disputed ? t('tournament.disputed') : t('tournament.undecided');
  if (o.winner === null) return t('tournament.bothForfeit');
  const winner = entrantName(T, o.winner);
  return o.forfeit ? t('tournament.forfeitResult', { winner }) : t('tournament.result', { winner, wp: o.winner_points, lp: o.loser_points });
}

/**
 * A club table's result form: the winner (one of the two) and the loser's score (below the
 * target: the server says so, the page knows no target); the director may give a forfeit instead.
 * @param {Tournament} T @param {Record<string, any>} table @param {Acts} acts
 */
function resultForm(T, table, acts) {
  const winner = h('select', { class: 'r-winner', 'aria-label': t('tournament.winner') },
    [table.first, table.second].map((n) => h('option', { value: n, text: entrantName(T, n) })));
  const points = h('input', {
    type: 'number', class: 'r-points', min: 0, required: true, inputmode: 'numeric', 'aria-label': t('tournament.loserPoints'),
  });
  const forfeit = T.you && T.you.director ? h('input', { type: 'checkbox', class: 'r-forfeit' }) : null;
  const form = h('form', { class: 't-result-form no-print', 'data-table': table.number, 'data-key': tableKey(table) },
    h('label', {}, h('span', { text: t('tournament.winner') }), winner),
    h('label', {}, h('span', { text: t('tournament.loserPoints') }), points),
    forfeit ? h('label', { class: 'check' }, forfeit, h('span', { text: t('tournament.forfeit') })) : null,
    h('button', { type: 'submit', class: 'primary', text: t(T.you && T.you.director ? 'tournament.decide' : 'tournament.submit') }));
  form.addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    const isForfeit = !!(forfeit && forfeit.checked);
    if (!isForfeit && points.value === '') { points.reportValidity(); return; }
    acts.result(table, Number(winner.value), isForfeit ? null : Number(points.value));
  });
  if (forfeit) forfeit.addEventListener('change', () => { points.required = !forfeit.checked; points.disabled = forfeit.checked; });
  return form;
}

/** A player's entry of a club table's result, as the director is shown it. @param {Tournament} T @param {string} n @param {any} entry */
function entryText(T, n, entry) {
  return t('tournament.entryOf', { name: entrantName(T, Number(n)), winner: entrantName(T, entry.winner), lp: entry.loser_points });
}

/** One table of this round. @param {Tournament} T @param {Record<string, any>} table @param {Acts} acts */
function tableRow(T, table, acts) {
  const me = T.you ? T.you.entrant : null;
  const mine = seatedAt(table, me);
  const links = [];
  if (table.game_id && table.outcome === null && mine) {
    links.push(h('button', { type: 'button', class: 'primary t-play', text: t('tournament.play'), onclick: () => acts.play(table.game_id) }));
  }
  if (table.watch) links.push(h('a', { class: 't-watch', href: `/watch/${encodeURIComponent(table.watch)}`, text: t('tournament.watch') }));
  const entries = T.you && T.you.director && table.outcome === null ? Object.entries(table.entries || {}) : [];
  const entered = (table.entered || []).length && table.outcome === null
    ? h('span', { class: 't-muted', text: t('tournament.entered', { names: table.entered.map((/** @type {number} */ n) => entrantName(T, n)).join(t('listSep')) }) })
    : null;
  return h('li', { class: `t-table-row${mine ? ' is-mine' : ''}`, 'data-table': table.number, 'data-game': table.game },
    h('span', { class: 't-table-no', text: t('tournament.table', { n: table.number }) }),
    table.stage === 'qualifying' ? null : h('span', { class: 't-muted', text: t('tournament.gameN', { n: table.game }) }),
    h('span', { class: 't-sides' }, nameButton(T, table.first, acts), h('span', { class: 't-vs', text: t('tournament.vs') }), nameButton(T, table.second, acts)),
    h('span', { class: `t-outcome${table.disputed ? ' is-disputed' : ''}`, text: resultText(T, table) }),
    entered,
    entries.length ? h('ul', { class: 't-entries' }, entries.map(([n, entry]) => h('li', { text: entryText(T, n, entry) }))) : null,
    links.length ? h('span', { class: 't-links no-print' }, links) : null,
    entersResult(T, table) ? resultForm(T, table, acts) : null);
}

/** This round's tables, each stage's last round. @param {Tournament} T @param {Acts} acts */
export function renderPairings(T, acts) {
  const tables = currentTables(T);
  $('t-pairings-card').hidden = tables.length === 0;
  $('t-pairings').replaceChildren(...STAGES.filter((s) => tables.some((x) => x.stage === s)).map((stage) => h('div', { class: 't-round', 'data-stage': stage },
    h('h3', { text: t('tournament.roundOf', { stage: t(`tournament.stage.${stage}`), n: T.rounds[stage] }) }),
    h('ol', { class: 't-tables' }, tables.filter((x) => x.stage === stage).map((x) => tableRow(T, x, acts))))));
}

/** A standings table. @param {Tournament} T @param {Record<string, any>[]} rows @param {Acts} acts */
function standingsTable(T, rows, acts) {
  const cols = ['rank', 'name', 'gp', 'won', 'skunks', 'spread', 'played', 'forfeits'];
  return [
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', class: `c-${c}`, text: t(`tournament.col.${c}`) })))),
    h('tbody', {}, rows.map((s) => h('tr', { class: T.you && T.you.entrant === s.entrant ? 'is-me' : '', 'data-entrant': s.entrant },
      h('td', { class: 'c-rank', text: String(s.rank) }),
      h('td', { class: 'c-name' }, nameButton(T, s.entrant, acts)),
      h('td', { class: 'c-gp', text: String(s.game_points) }),
      h('td', { text: String(s.won) }),
      h('td', { text: String(s.skunks) }),
      h('td', { class: 'c-spread', text: signedText(s.spread) }),
      h('td', { text: String(s.played) }),
      h('td', { text: String(s.forfeits) })))),
  ];
}

/** The standings (and the consolation's). @param {Tournament} T @param {Acts} acts */
export function renderStandings(T, acts) {
  $('t-standings-card').hidden = !T.standings.length;
  $('t-standings').replaceChildren(...standingsTable(T, T.standings, acts));
  $('t-consolation-block').hidden = !T.consolation.length;
  $('t-consolation').replaceChildren(...standingsTable(T, T.consolation, acts));
}

/** The playoffs' bracket, a column a round. @param {Tournament} T @param {Acts} acts */
export function renderBracket(T, acts) {
  const rounds = T.bracket || [];
  $('t-bracket-card').hidden = !rounds.length;
  $('t-bracket').replaceChildren(...rounds.map((/** @type {any[]} */ matches, i) => h('div', { class: 't-bracket-round', 'data-round': i + 1 },
    h('h3', { text: i === rounds.length - 1 ? t('tournament.final') : t('tournament.roundN', { n: i + 1 }) }),
    ...matches.map((m) => {
      const bye = m.round === 1 && (m.top === null) !== (m.bottom === null);
      const side = (/** @type {number | null} */ n, /** @type {number} */ wins) => h('div', { class: `t-side${m.winner !== null && m.winner === n ? ' is-winner' : ''}` },
        n === null ? h('span', { class: 't-muted', text: bye ? t('tournament.bye') : t('tournament.tbd') }) : nameButton(T, n, acts),
        n === null || bye ? null : h('span', { class: 't-wins', text: String(wins) }));
      return h('div', { class: `t-match${bye ? ' is-bye' : ''}` },
        side(m.top, m.wins[0]), side(m.bottom, m.wins[1]),
        bye ? null : h('div', { class: 't-muted t-best-of', text: t('tournament.bestOfN', { n: m.best_of }) }));
    }))));
}

/** The champions. @param {Tournament} T */
export function renderChampions(T) {
  $('t-champion').hidden = T.champion === null;
  $('t-champion').textContent = T.champion === null ? '' : t('tournament.champion', { name: entrantName(T, T.champion) });
  $('t-consolation-champion').hidden = T.consolation_champion === null;
  $('t-consolation-champion').textContent = T.consolation_champion === null ? '' : t('tournament.consolationChampion', { name: entrantName(T, T.consolation_champion) });
}

/**
 * An entrant's scorecard: every game with the opponent, the result, the game points, the spread,
 * and the way to its review (every online game played to its end: a tournament's games are
 * public once over).
 * @param {Tournament} T @param {number | null} entrant  null: none shown @param {Acts} acts
 */
export function renderScorecard(T, entrant, acts) {
  $('t-scorecard-card').hidden = entrant === null;
  if (entrant === null) return;
  $('t-scorecard-title').textContent = t('tournament.scorecard', { name: entrantName(T, entrant) });
  const head = ['stage', 'opponent', 'result', 'gp', 'spread', ''].map((c) => h('th', { scope: 'col', text: c ? t(`tournament.sc.${c}`) : '' }));
  $('t-scorecard').replaceChildren(h('thead', {}, h('tr', {}, head)), h('tbody', {}, scorecard(T, entrant).map((line) => {
    const result = line.outcome === 'pending' ? t('tournament.undecided')
      : line.outcome === 'bye' ? t('tournament.byeResult')
        : `${t(`tournament.${line.outcome}${line.forfeit ? 'Forfeit' : ''}`)}${line.score && !line.forfeit ? ` ${line.score[0]}–${line.score[1]}` : ''}`;
    const review = reviewable(line)
      ? h('button', { type: 'button', class: 'secondary t-review', text: t('tournament.review'), onclick: () => acts.review(String(line.gameId), line.side) })
      : null;
    return h('tr', { 'data-round': line.round },
      h('td', { text: t('tournament.roundOf', { stage: t(`tournament.stage.${line.stage}`), n: line.round }) }),
      h('td', {}, nameButton(T, line.opponent, acts)),
      h('td', { class: `t-result is-${line.outcome}`, text: result }),
      h('td', { text: line.gamePoints === null ? '\u2014' : String(line.gamePoints) }),
      h('td', { text: signedText(line.spread) }),
      h('td', { class: 'no-print' }, review));
  })));
}

/**
 * The director's tools: start, add a guest (a club's, before the start), and each disputed club
 * table with the two entries (the result form of the table, in this round's list, decides it).
 * @param {Tournament} T @param {Acts} acts
 */
export function renderDirector(T, acts) {
  const director = !!(T.you && T.you.director);
  $('t-director').hidden = !director || T.stage === 'finished';
  if (!director) return;
  const parts = [];
  if (T.stage === 'registration') {
    const checked = (T.entrants || []).filter((/** @type {any} */ e) => e.checked_in).length;
    parts.push(h('p', { class: 't-muted', text: t('tournament.checkedInN', { n: checked }) }));
    parts.push(h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'primary', id: 't-start', text: t('tournament.start'), onclick: () => acts.start() })));
    if (T.settings.venue === 'club') {
      const name = h('input', { id: 't-guest-name', autocomplete: 'off', required: true });
      const partner = T.teams ? h('input', { id: 't-guest-partner', autocomplete: 'off', required: true }) : null;
      const form = h('form', { class: 't-form t-guest-form' },
        h('label', {}, h('span', { text: t('tournament.guestName') }), name),
        partner ? h('label', {}, h('span', { text: t('tournament.guestPartner') }), partner) : null,
        h('button', { type: 'submit', class: 'secondary', id: 't-guest-add', text: t(T.teams ? 'tournament.addGuestTeam' : 'tournament.addGuest') }));
      form.addEventListener('submit', (/** @type {Event} */ e) => {
        e.preventDefault();
        const second = partner ? partner.value.trim() : '';
        if (name.value.trim() && (!partner || second)) acts.guest(name.value.trim(), second);
      });
      parts.push(form);
    }
  }
  for (const table of disputes(T)) {
    const entries = Object.entries(table.entries || {}).map(([n, entry]) => h('li', { text: entryText(T, n, entry) }));
    parts.push(h('div', { class: 't-dispute', 'data-table': table.number },
      h('p', { class: 't-outcome is-disputed', text: `${t('tournament.table', { n: table.number })}: ${t('tournament.disputed')}` }),
      h('ul', {}, entries)));
  }
  $('t-director-body').replaceChildren(...parts);
}
