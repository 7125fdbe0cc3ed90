"""A software passkey authenticator for the tests: ES256 keys (``cryptography``), "none"
attestation, a signature counter, user verification; it answers WebAuthn's JSON options with
the JSON a browser's ``PublicKeyCredential.toJSON()`` gives, so that the server's verification
(py_webauthn) really runs without a browser.  Each answer can be spoiled on purpose (another
challenge, another origin, no user verification, a counter turned back)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40
"""The authenticator data's flags: user present, user verified, attested credential data."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Key:
    """A credential the authenticator holds: its id, private key, user handle, counter."""

    id: bytes
    private: ec.EllipticCurvePrivateKey
    user: str
    rp_id: str
    count: int = 0


class SoftAuthenticator:
    """Makes passkeys and signs in with them, as a platform authenticator would."""

    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.keys: list[Key] = []

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def create(
        self,
        options: dict[str, Any],
        key: Key | None = None,
        *,
        challenge: str | None = None,
        origin: str | None = None,
        flags: int = UP | UV,
    ) -> dict[str, Any]:
        """A new credential for creation options (``navigator.credentials.create``)."""
        rp_id = options["rp"]["id"]
        if key is None:  # a new one (else the one given, attested again)
            key = Key(os.urandom(16), ec.generate_private_key(ec.SECP256R1()), options["user"]["id"], rp_id)
            self.keys.append(key)
        numbers = key.private.public_key().public_numbers()
        cose = cbor2.dumps(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        )
        attested = bytes(16) + len(key.id).to_bytes(2, "big") + key.id + cose
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([flags | AT]) + (0).to_bytes(4, "big") + attested
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", challenge or options["challenge"], origin)
        return {
            "id": b64url(key.id),
            "rawId": b64url(key.id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
        }

    def get(
        self,
        options: dict[str, Any],
        key: Key | None = None,
        *,
        challenge: str | None = None,
        origin: str | None = None,
        flags: int = UP | UV,
        count: int | None = None,
    ) -> dict[str, Any]:
        """An assertion for request options (``navigator.credentials.get``), by ``key`` (the
        last made by default), its counter one up (or ``count``)."""
        key = key or self.keys[-1]
        key.count = key.count + 1 if count is None else count
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth_data = rp_hash + bytes([flags]) + key.count.to_bytes(4, "big")
        client_data = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = key.private.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(key.id),
            "rawId": b64url(key.id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": key.user,
            },
        }
