// @ts-check
// The DOM helpers every page module uses, written once: an element (h), an SVG element (svg), an
// element by id ($), styles through the CSSOM (setStyle), and the browser's storage (loadJSON...).
// Styles are never a style attribute: the Content-Security-Policy has no 'unsafe-inline'
// (hardening.py), which a style="..." would need.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The element of an id. The page's elements are of many kinds (inputs, dialogs, selects), each
 * used as what it is, so the type is left open.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * Set CSS properties (custom ones too, like --side) through the CSSOM.
 * @param {HTMLElement | SVGElement} el
 * @param {Record<string, string>} properties
 */
export function setStyle(el, properties) {
  for (const [name, value] of Object.entries(properties)) el.style.setProperty(name, value);
}

/** @typedef {Node | string | null | undefined | false} Child */

/**
 * An element: attrs are its attributes, with class, text, style ({'--side': colour}) and on*
 * listeners; a null, undefined or false attribute or child is left out.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {any}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style') setStyle(el, v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * A dialog of the page made at its first use (a lazily loaded screen's): the element of the id,
 * else a new <dialog> with these attributes appended to the body, made() called once with it.
 * @param {string} id
 * @param {Record<string, any>} attrs
 * @param {(el: HTMLDialogElement) => void} [made]
 * @returns {HTMLDialogElement}
 */
export function pageDialog(id, attrs, made) {
  let el = $(id);
  if (!el) {
    el = h('dialog', { id, ...attrs });
    document.body.append(el);
    if (made) made(el);
  }
  return el;
}

/**
 * An SVG element with its attributes (style as in h), appended to parent if given.
 * @param {string} name
 * @param {Record<string, any>} [attrs]
 * @param {Element | null} [parent]
 * @param {string} [text]
 * @returns {any}
 */
export function svg(name, attrs = {}, parent = null, text = undefined) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'style') setStyle(el, v);
    else el.setAttribute(k, String(v));
  }
  if (text !== undefined) el.textContent = text;
  if (parent) parent.append(el);
  return el;
}

/**
 * A value kept in localStorage as JSON, or fallback (none kept, unreadable, private mode).
 * @template T
 * @param {string} key
 * @param {T} fallback
 * @returns {T}
 */
export function loadJSON(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null');
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * Keep a value in localStorage as JSON (private mode: nothing is kept).
 * @param {string} key
 * @param {unknown} value
 */
export function saveJSON(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: ignore */ }
}
