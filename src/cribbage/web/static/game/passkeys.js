// @ts-check
// Passkeys in the browser (docs/api.md, "Passkeys"): each ceremony asks the server for WebAuthn's
// options (JSON), hands them to navigator.credentials, and sends the credential back as JSON.
// The browser's own JSON helpers where it has them (PublicKeyCredential.parseCreationOptionsFromJSON,
// credential.toJSON()), else the base64url conversions below, here only.
// Loaded with the account's dialog (view-account.js), never at the page's first load.

import * as api from '../shared/api.js';

/** Whether this browser can use passkeys at all. */
export const passkeysAvailable = () => typeof window.PublicKeyCredential === 'function';

/** @param {string} text base64url @returns {ArrayBuffer} */
function toBytes(text) {
  const plain = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0)).buffer;
}

/** @param {ArrayBuffer | ArrayBufferView} data @returns {string} base64url */
function toText(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** @param {any[] | undefined} list @returns {any[]} credential descriptors with their ids as bytes */
const descriptors = (list) => (list || []).map((item) => ({ ...item, id: toBytes(item.id) }));

/** @param {any} json PublicKeyCredentialCreationOptionsJSON @returns {PublicKeyCredentialCreationOptions} */
function creationOptions(json) {
  const PKC = /** @type {any} */ (window.PublicKeyCredential);
  if (typeof PKC.parseCreationOptionsFromJSON === 'function') return PKC.parseCreationOptionsFromJSON(json);
  return { ...json, challenge: toBytes(json.challenge), user: { ...json.user, id: toBytes(json.user.id) }, excludeCredentials: descriptors(json.excludeCredentials) };
}

/** @param {any} json PublicKeyCredentialRequestOptionsJSON @returns {PublicKeyCredentialRequestOptions} */
function requestOptions(json) {
  const PKC = /** @type {any} */ (window.PublicKeyCredential);
  if (typeof PKC.parseRequestOptionsFromJSON === 'function') return PKC.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: toBytes(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** @param {any} credential a PublicKeyCredential @returns {Record<string, any>} its JSON */
function credentialJSON(credential) {
  if (typeof credential.toJSON === 'function') return credential.toJSON();
  const r = credential.response;
  /** @type {Record<string, any>} */
  const response = { clientDataJSON: toText(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toText(r.attestationObject);
    response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
  } else {
    response.authenticatorData = toText(r.authenticatorData);
    response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
  }
  return {
    id: credential.id, rawId: toText(credential.rawId), type: credential.type, response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

/**
 * The browser's own refusal as a code of ours (the page words it): cancelled or timed out, a
 * passkey of this account on this device already, anything else.
 * @param {unknown} err
 */
function browserError(err) {
  if (err instanceof api.ApiError) return err;
  const name = err instanceof Error ? err.name : '';
  const code = name === 'NotAllowedError' || name === 'AbortError' ? 'passkey.cancelled'
    : name === 'InvalidStateError' ? 'passkey.exists' : 'passkey.failed';
  return new api.ApiError(0, String(err instanceof Error ? err.message : err), { code });
}

/** @param {any} options creation options JSON @returns {Promise<Record<string, any>>} */
async function create(options) {
  try {
    return credentialJSON(await navigator.credentials.create({ publicKey: creationOptions(options) }));
  } catch (err) { throw browserError(err); }
}

/** @param {any} options request options JSON @returns {Promise<Record<string, any>>} */
async function get(options) {
  try {
    return credentialJSON(await navigator.credentials.get({ publicKey: requestOptions(options) }));
  } catch (err) { throw browserError(err); }
}

/** Make an account named `name` with a new passkey: the session's answer, as signing up's. @param {string} name */
export async function signUpWithPasskey(name) {
  const { ceremony, options } = await api.passkeySignUpOptions(name);
  return api.passkeySignUp(ceremony, await create(options));
}

/** Sign in with a passkey of this site (the browser offers them): the session's answer. */
export async function signInWithPasskey() {
  const { ceremony, options } = await api.passkeySignInOptions();
  return api.passkeySignIn(ceremony, await get(options));
}

/** Add a new passkey to the signed-in account: `{passkeys: N}`. @param {string} session its token */
export async function addPasskey(session) {
  const { ceremony, options } = await api.passkeyAddOptions(session);
  return api.passkeyAdd(session, ceremony, await create(options));
}

/**
 * Delete the signed-in account, a passkey of it asked for again (a sign-in's options: the browser
 * offers this site's passkeys): `{deleted, games}`.  The only way for an account without a password.
 * @param {string} session its token
 */
export async function deleteWithPasskey(session) {
  const { ceremony, options } = await api.passkeySignInOptions();
  return api.passkeyDelete(session, ceremony, await get(options));
}
