// @ts-check
// The cribbage board: one track of holes per side, laid out as a serpentine whose rows run side by
// side (like the streets of a real board), scaled to the target (61, 121, 151 ...).  Each side has
// two pegs: the front peg is the score, the back peg the previous score; a new score leapfrogs the
// back peg past the front one, and the move is animated with a CSS transition.

import { svg as el } from './dom.js';

const DX = 10;        // distance between holes
const GROUP_GAP = 5;  // extra space after every five holes
const DY = 10;        // distance between the tracks of two sides in one row
const ROW_GAP = 12;   // extra space between rows
const PAD_X = 24;
const PAD_Y = 12;


export class Board {
  /**
   * @param {HTMLElement} container
   * @param {{target:number, skunkLine:number, doubleSkunkLine:number|null, sides:number, colors:string[], labels:{title:string, skunk:string, doubleSkunk:string, side:(i:number)=>string}}} opts
   *   skunkLine and doubleSkunkLine (null: none) are the rules' (the view's rules.skunk_line...);
   *   the tracks are drawn from the top, each in its colour (a CSS value: placeColor, display.js).
   */
  constructor(container, opts) {
    this.container = container;
    this.opts = opts;
    this.pegs = [];
    this.rowLen = 0;
    this.rows = 0;
    this.scores = new Array(opts.sides).fill(0);
    this.previous = new Array(opts.sides).fill(0);
    this.build();
  }

  /** Rows of up to 75 holes on a wide screen (60 for 61 and 121), 40 on a phone: a compact board
   * (three rows for 121) that leaves the hand and the next action on the screen. */
  chooseRowLength() {
    const wide = (this.container.clientWidth || window.innerWidth) >= 620;
    const holes = this.opts.target - 1;
    if (!wide) return 40;
    const rows = Math.ceil(holes / 75);
    return Math.max(5, Math.ceil(holes / rows / 5) * 5);
  }

  resize() {
    if (this.chooseRowLength() !== this.rowLen) this.build();
  }

  x(col) {
    return PAD_X + col * DX + Math.floor(col / 5) * GROUP_GAP;
  }

  rowTop(row) {
    return PAD_Y + row * (this.opts.sides * DY + ROW_GAP);
  }

  /** The centre of the hole for a score on a side's track (0 = start, >= target = the game hole). */
  position(side, score) {
    const { target, sides } = this.opts;
    const L = this.rowLen;
    if (score <= 0) return { x: PAD_X - 15, y: this.rowTop(0) + side * DY };
    if (score >= target) {
      const lastRow = this.rows - 1;
      const right = lastRow % 2 === 0;
      const y = this.rowTop(lastRow) + ((sides - 1) * DY) / 2;
      return { x: right ? this.x(L - 1) + 16 : PAD_X - 16, y };
    }
    const row = Math.floor((score - 1) / L);
    const c = (score - 1) % L;
    const col = row % 2 === 0 ? c : L - 1 - c;
    return { x: this.x(col), y: this.rowTop(row) + side * DY };
  }

  build() {
    const { target, skunkLine, doubleSkunkLine, sides, colors, labels } = this.opts;
    this.rowLen = this.chooseRowLength();
    this.rows = Math.ceil((target - 1) / this.rowLen);
    const width = this.x(this.rowLen - 1) + PAD_X + 4;
    const height = this.rowTop(this.rows) - ROW_GAP + PAD_Y - DY + 6;
    this.container.textContent = '';
    const svg = el('svg', {
      viewBox: `0 0 ${width} ${height}`,
      class: 'board-svg',
      role: 'img',
      'aria-label': labels.title,
    });
    this.svg = svg;
    el('rect', { x: 1, y: 1, width: width - 2, height: height - 2, rx: 10, class: 'board-wood' }, svg);

    // Holes, tinted per side, and a label every ten holes.
    const holes = el('g', { class: 'holes' }, svg);
    for (let s = 0; s < sides; s++) {
      const start = this.position(s, 0);
      el('circle', { cx: start.x, cy: start.y, r: 2.6, class: 'hole start' }, holes);
      for (let k = 1; k < target; k++) {
        const p = this.position(s, k);
        el('circle', { cx: p.x, cy: p.y, r: 2.1, class: `hole side-${s}`, style: { '--side': colors[s] } }, holes);
      }
    }
    for (let row = 0; row < this.rows; row++) {
      const y = this.rowTop(row) + (sides - 1) * DY + 5.5;
      for (let k = row * this.rowLen + 1; k <= Math.min(target - 1, (row + 1) * this.rowLen); k++) {
        if (k % 10 !== 0 && k !== 1) continue;
        if (k === 1 && row !== 0) continue;
        const p = this.position(0, k);
        const text = el('text', { x: p.x, y: y + 3.5, class: 'hole-label' }, svg);
        text.textContent = String(k);
      }
    }
    const finish = this.position(0, target);
    el('circle', { cx: finish.x, cy: finish.y, r: 4, class: 'hole finish' }, svg);
    const ft = el('text', { x: finish.x, y: finish.y - 6, class: 'hole-label strong' }, svg);
    ft.textContent = String(target);

    // Skunk lines, as the rules draw them: a loser short of one is skunked (or double skunked).
    /** @type {[number, string][]} */
    const lines = [[skunkLine, labels.skunk]];
    if (doubleSkunkLine !== null && doubleSkunkLine !== undefined) lines.push([doubleSkunkLine, labels.doubleSkunk]);
    for (const [k, name] of lines) {
      if (k <= 1) continue;
      const a = this.position(0, k - 1), b = this.position(0, k);
      const x = a.y === b.y ? (a.x + b.x) / 2 : b.x + (Math.floor((k - 1) / this.rowLen) % 2 === 0 ? -DX / 2 : DX / 2);
      const y0 = b.y - 5, y1 = b.y + (sides - 1) * DY + 5;
      const line = el('line', { x1: x, x2: x, y1: y0, y2: y1, class: 'skunk-line' }, svg);
      const title = el('title', {}, line);
      title.textContent = `${name} (${k})`;
    }

    // Two pegs per side; the back peg drawn lighter.
    this.pegs = [];
    const pegLayer = el('g', { class: 'pegs' }, svg);
    for (let s = 0; s < sides; s++) {
      const make = (cls) => {
        const g = el('g', { class: `peg ${cls}`, style: { '--side': colors[s] } }, pegLayer);
        el('circle', { r: 3.6 }, g);
        const title = el('title', {}, g);
        title.textContent = labels.side(s);
        return g;
      };
      const back = make('back-peg');
      const front = make('front-peg');
      this.pegs.push({ front, back, frontAt: -1, backAt: -1 });
    }
    this.container.append(svg);
    this.place(this.scores, this.previous, false);
  }

  move(g, side, score) {
    const p = this.position(side, score);
    g.style.transform = `translate(${p.x}px, ${p.y}px)`;
    g.dataset.score = String(score);
  }

  /** Show the scores; a single new score per side leapfrogs the back peg (animated when asked). */
  place(scores, previous, animate = true) {
    this.svg.classList.toggle('animate', animate);
    for (let s = 0; s < this.opts.sides; s++) {
      const peg = this.pegs[s];
      const score = scores[s] ?? 0, prev = previous[s] ?? 0;
      if (peg.frontAt === score && peg.backAt === prev) continue;
      if (animate && prev === peg.frontAt && score !== peg.frontAt) {
        // Leapfrog: the back peg jumps to the new score and becomes the front peg.
        [peg.front, peg.back] = [peg.back, peg.front];
      }
      peg.front.classList.replace('back-peg', 'front-peg');
      peg.back.classList.replace('front-peg', 'back-peg');
      this.move(peg.front, s, score);
      this.move(peg.back, s, prev);
      peg.frontAt = score;
      peg.backAt = prev;
    }
    this.scores = [...scores];
    this.previous = [...previous];
  }
}
