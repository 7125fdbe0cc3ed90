// @ts-check
// The account's dialog (docs/api.md, "Accounts"): sign in or create an account with a name and a
// password, sign out, and add this browser's games (its seats as a guest) to a new account; where
// the browser has passkeys, create an account or sign in with one, and add one (docs/api.md, "Passkeys").
// Loaded at the first click of the top bar's account button (app.js): the first page load stays small.

import * as api from '../shared/api.js';
import { $, h } from '../shared/dom.js';
import { errorText, t } from '../shared/i18n.js';
import { addPasskey, deleteWithPasskey, passkeysAvailable, signInWithPasskey, signUpWithPasskey } from './passkeys.js';
import { forgetSession, guestTokens, loadSession, saveSession } from '../shared/saved.js';
import { labelAccount } from './view-dialogs.js';
import { notifiesEverywhere, notifyEverywhere, supported as pushSupported } from './push.js';

/** @returns {HTMLDialogElement} the dialog, made at its first opening */
function dialog() {
  let el = $('account-dialog');
  if (!el) {
    el = h('dialog', { id: 'account-dialog', class: 'dialog', 'aria-labelledby': 'account-title' });
    document.body.append(el);
  }
  return el;
}

/** Open the account's dialog: the form to sign in, or who is signed in. */
export function openAccount() {
  const el = dialog();
  const session = loadSession();
  if (session) fillSignedIn(el); else fillSignIn(el);
  if (!el.open) el.showModal();
  // A session ended elsewhere or expired (30 days) is signed out here too; the server ignores it anyway.
  if (session) {
    api.me(session.token).catch((err) => {
      if (err.code !== 'account.bad_session' || loadSession()?.token !== session.token) return;
      forgetSession();
      labelAccount();
      if (!el.open) return;
      fillSignIn(el);
      showError($('account-error'), err);
    });
  }
}

/** @param {HTMLElement} box @param {any} err */
function showError(box, err) {
  box.textContent = errorText(err);
  box.hidden = false;
}

/** @param {HTMLDialogElement} el */
function fillSignIn(el) {
  const error = h('div', { id: 'account-error', class: 'error', role: 'alert', hidden: true });
  const name = h('input', { id: 'account-name', name: 'name', maxlength: '20', autocomplete: 'username', required: true });
  const password = h('input', { id: 'account-password', name: 'password', type: 'password', maxlength: '256', autocomplete: 'current-password', required: true });
  /** @param {boolean} create */
  const submit = async (create) => {
    const form = /** @type {HTMLFormElement} */ (el.querySelector('form'));
    if (!form.reportValidity()) return;
    error.hidden = true;
    for (const b of el.querySelectorAll('button')) b.disabled = true;
    try {
      const answer = create ? await api.signUp(name.value.trim(), password.value) : await api.signIn(name.value.trim(), password.value);
      saveSession(answer.token, answer.account.name);
      labelAccount();
      fillSignedIn(el, create && guestTokens().length > 0);
    } catch (err) {
      for (const b of el.querySelectorAll('button')) b.disabled = false;
      showError(error, err);
    }
  };
  el.replaceChildren(h('form', { method: 'dialog', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit(false); } },
    h('h2', { id: 'account-title', text: t('account.signIn') }),
    h('div', { class: 'field' }, h('label', { for: 'account-name', text: t('account.name') }), name),
    h('div', { class: 'field' }, h('label', { for: 'account-password', text: t('account.password') }), password),
    error,
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'submit', class: 'primary', id: 'account-signin', text: t('account.signIn') }),
      h('button', { type: 'button', class: 'secondary', id: 'account-create', text: t('account.create'), onclick: () => submit(true) }),
      h('button', { type: 'button', class: 'secondary', id: 'account-cancel', text: t('cancel'), onclick: () => el.close() })),
    passkeyButtons(el, error, name)));
  name.focus();
}

/**
 * Who is signed in, with signing out; after creating an account, the offer to add this
 * browser's games to it.
 * @param {HTMLDialogElement} el
 * @param {boolean} [offerClaim]
 */
function fillSignedIn(el, offerClaim = false) {
  const session = loadSession();
  if (!session) { fillSignIn(el); return; }
  const error = h('div', { id: 'account-error', class: 'error', role: 'alert', hidden: true });
  const note = h('p', { id: 'account-note', 'aria-live': 'polite', hidden: true });
  const claim = offerClaim && h('button', {
    type: 'button', class: 'primary', id: 'account-claim', text: t('account.claim'),
    onclick: async () => {
      error.hidden = true;
      claim.disabled = true;
      try {
        const answer = await api.claim(session.token, guestTokens());
        note.textContent = t('account.claimed', { n: answer.claimed.length });
        note.hidden = false;
        claim.remove();
      } catch (err) {
        claim.disabled = false;
        showError(error, err);
      }
    },
  });
  el.replaceChildren(
    h('h2', { id: 'account-title', text: t('account.signedInAs', { name: session.name }) }),
    note, error,
    h('div', { class: 'dialog-buttons' },
      claim,
      h('button', {
        type: 'button', class: 'secondary', id: 'account-signout', text: t('account.signOut'),
        onclick: async () => {
          // Forgotten here whatever the server answers: an ended or expired session is signed out too.
          try { await api.signOut(session.token); } catch { /* offline: the session expires on its own */ }
          forgetSession();
          labelAccount();
          el.close();
        },
      }),
      h('button', { type: 'button', class: 'secondary', id: 'account-close', text: t('close'), onclick: () => el.close() })),
    ...passkeyButtons(el, error, null, note),
    accountTools(el, session, error));
}

// ------------------------------------------------------------------ passkeys (docs/api.md, "Passkeys")

/**
 * The dialog's passkey buttons, where the browser has passkeys (none otherwise): signed out,
 * "Create account with a passkey" (the name above) and "Sign in with a passkey"; signed in,
 * "Add a passkey" (said done in `note`).
 * @param {HTMLDialogElement} el
 * @param {HTMLElement} error
 * @param {HTMLInputElement | null} name
 * @param {HTMLElement} [note]
 * @returns {HTMLElement[]} the buttons' row, or none
 */
function passkeyButtons(el, error, name, note) {
  if (!passkeysAvailable()) return [];
  /** @param {() => Promise<any>} ceremony @param {(answer: any) => void} done */
  const run = async (ceremony, done) => {
    error.hidden = true;
    const buttons = [...el.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    try {
      done(await ceremony());
    } catch (err) {
      showError(error, err);
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };
  /** @param {boolean} created @returns {(answer: any) => void} */
  const signedIn = (created) => (answer) => {
    saveSession(answer.token, answer.account.name);
    labelAccount();
    fillSignedIn(el, created && guestTokens().length > 0);
  };
  const button = (/** @type {string} */ id, /** @type {string} */ key, /** @type {() => void} */ onclick) =>
    h('button', { type: 'button', class: 'secondary', id, text: t(key), onclick });
  const session = loadSession();
  if (session || !name) {
    if (!session || !note) return [];
    return [h('div', { class: 'dialog-buttons', id: 'account-passkeys' },
      button('account-passkey-add', 'account.passkeyAdd', () => run(() => addPasskey(session.token), () => {
        note.textContent = t('account.passkeyAdded');
        note.hidden = false;
      })))];
  }
  return [h('div', { class: 'dialog-buttons', id: 'account-passkeys' },
    button('account-passkey-create', 'account.passkeyCreate', () => {
      if (name.reportValidity()) run(() => signUpWithPasskey(name.value.trim()), signedIn(true));
    }),
    button('account-passkey-signin', 'account.passkeySignIn', () => run(signInWithPasskey, signedIn(false))))];
}

// ------------------------------------------------------------------ profile, sign out everywhere, delete

/**
 * The signed-in account's further buttons: its profile, signing out in every browser, and
 * deleting the account (its password or a passkey of it asked again: deleteBox); after either of
 * the last two this page is signed out, the sign-in form shown with what happened.
 * @param {HTMLDialogElement} el
 * @param {{token: string, name: string}} session
 * @param {HTMLElement} error
 */
function accountTools(el, session, error) {
  /** @param {string} note */
  const signedOut = (note) => {
    forgetSession();
    labelAccount();
    fillSignIn(el);
    $('account-title').after(h('p', { id: 'account-note', role: 'status', text: note }));
  };
  /** @param {HTMLButtonElement} button @param {() => Promise<void>} act @param {(err: any) => string} [words] */
  const run = async (button, act, words = errorText) => {
    error.hidden = true;
    button.disabled = true;
    try { await act(); } catch (err) { button.disabled = false; error.textContent = words(err); error.hidden = false; }
  };
  const deletion = deleteBox(session, run, () => signedOut(t('account.deleted')));
  const deleteButton = h('button', {
    type: 'button', class: 'secondary', id: 'account-delete', text: t('account.delete'),
    // Asked of the server each time: whether the account has a password, and passkeys (ACCOUNT).
    onclick: () => run(deleteButton, async () => { deletion.open(await api.me(session.token)); deleteButton.disabled = false; }),
  });
  const everywhere = h('button', {
    type: 'button', class: 'secondary', id: 'account-signout-all', text: t('account.signOutAll'),
    onclick: () => run(everywhere, async () => { const ended = await api.signOutAll(session.token); signedOut(t('account.signedOutAll', { n: ended.ended })); }),
  });
  const pushAll = h('input', {
    type: 'checkbox', id: 'account-push-all', checked: notifiesEverywhere(),
    onchange: async () => {
      const on = await notifyEverywhere(pushAll.checked);
      if (pushAll.checked && !on) { error.textContent = t('pushDenied'); error.hidden = false; }
      pushAll.checked = on;
    },
  });
  return h('div', { class: 'account-tools' },
    pushSupported() ? h('p', { class: 'field' }, h('label', {}, pushAll, ' ', h('span', { text: t('account.pushAll') }))) : null,
    h('div', { class: 'dialog-buttons' },
      h('button', {
        type: 'button', class: 'secondary', id: 'account-profile', text: t('account.profile'),
        onclick: () => { el.close(); import('./view-profile.js').then((m) => m.openProfile(session.name)); },
      }),
      everywhere,
      deleteButton),
    deletion.box);
}

/**
 * The deletion's box: the warning, then what the account has to be asked again by (docs/api.md,
 * "Accounts", "Passkeys"): its password, with "Delete for good"; a passkey of it, with "Delete with
 * a passkey" (where this browser has passkeys); either, the person choosing.  An account without
 * a password never sees a password field; in a browser without passkeys it is told where to go.
 * @param {{token: string, name: string}} session
 * @param {(button: HTMLButtonElement, act: () => Promise<void>, words?: (err: any) => string) => Promise<void>} run
 * @param {() => void} deleted
 * @returns {{box: HTMLFormElement, open: (account: {password?: boolean, passkeys?: number}) => void}}
 */
function deleteBox(session, run, deleted) {
  const box = /** @type {HTMLFormElement} */ (h('form', { id: 'account-delete-form', class: 'delete-box', hidden: true }));
  /** @param {any} err */
  const passkeyWords = (err) => (err?.code === 'account.bad_credentials' ? t('account.passkeyNotThis') : errorText(err));
  /** @param {{password?: boolean, passkeys?: number}} account */
  const open = (account) => {
    const byPassword = account.password === true;
    const byPasskey = (account.passkeys ?? 0) > 0 && passkeysAvailable();
    const how = byPassword && byPasskey ? 'account.deleteByEither' : byPassword ? 'account.deleteByPassword'
      : byPasskey ? 'account.deleteByPasskey' : 'account.deleteNeedsPasskey';
    const password = byPassword && h('input', { id: 'account-delete-password', type: 'password', maxlength: '256', autocomplete: 'current-password', required: true });
    const confirm = byPassword && h('button', { type: 'submit', class: 'danger', id: 'account-delete-confirm', text: t('account.deleteNow') });
    const withPasskey = byPasskey && h('button', {
      type: 'button', class: byPassword ? 'secondary' : 'danger', id: 'account-delete-passkey', text: t('account.deleteWithPasskey'),
      onclick: () => run(withPasskey, async () => { await deleteWithPasskey(session.token); deleted(); }, passkeyWords),
    });
    box.onsubmit = (/** @type {Event} */ e) => {
      e.preventDefault();
      if (password && confirm && box.reportValidity()) run(confirm, async () => { await api.deleteAccount(session.token, password.value); deleted(); });
    };
    box.replaceChildren(
      h('p', { text: t('account.deleteWarning') }),
      h('p', { id: 'account-delete-how', text: t(how) }),
      password && h('div', { class: 'field' }, h('label', { for: 'account-delete-password', text: t('account.password') }), password),
      h('div', { class: 'dialog-buttons' }, confirm, withPasskey,
        h('button', { type: 'button', class: 'secondary', id: 'account-delete-cancel', text: t('cancel'), onclick: () => { box.hidden = true; } })));
    box.hidden = false;
    (password || withPasskey || box.querySelector('button'))?.focus();
  };
  return { box, open };
}
