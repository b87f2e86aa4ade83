"""A software passkey for the tests: the authenticator's half of WebAuthn (a P-256 key, "none" attestation,
signed assertions) built from fido2's own data types, so allauth's server side meets real WebAuthn bytes."""

import hashlib
import json
import os
import re

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2.cose import ES256
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (
    Aaguid,
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
)

JS_DATA = re.compile(r'<script id="js_data" type="application/json">(.*?)</script>', re.S)
FLAGS = AuthenticatorData.FLAG


def creation_options(html: str) -> dict:
    """The options the add page hands its script (allauth's `js_data`)."""
    return json.loads(JS_DATA.search(html).group(1))["creation_options"]["publicKey"]


class SoftPasskey:
    def __init__(self, origin: str = "https://testserver"):
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.user_handle: bytes | None = None
        self.counter = 0

    def _auth_data(self, rp_id: str, flags, credential_data: bytes = b"") -> AuthenticatorData:
        self.counter += 1
        rp_id_hash = hashlib.sha256(rp_id.encode()).digest()
        return AuthenticatorData.create(rp_id_hash, flags, self.counter, credential_data)

    def _client_data(self, kind: str, challenge: str) -> CollectedClientData:
        return CollectedClientData.create(type=kind, challenge=websafe_decode(challenge), origin=self.origin)

    def create(self, options: dict) -> dict:
        """navigator.credentials.create(), as webauthn-json hands it to the page: a new key for this RP."""
        self.user_handle = websafe_decode(options["user"]["id"])
        public_key = ES256.from_cryptography_key(self.key.public_key())
        credential = AttestedCredentialData.create(Aaguid.NONE, self.credential_id, public_key)
        auth_data = self._auth_data(options["rp"]["id"], FLAGS.UP | FLAGS.UV | FLAGS.AT, credential)
        client_data = self._client_data("webauthn.create", options["challenge"])
        attestation = AttestationObject.create("none", auth_data, {})
        return {
            "id": websafe_encode(self.credential_id),
            "rawId": websafe_encode(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": websafe_encode(client_data),
                "attestationObject": websafe_encode(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {"credProps": {"rk": True}},
        }

    def get(self, options: dict) -> dict:
        """navigator.credentials.get(): an assertion signed with the key, naming its user (a passkey)."""
        auth_data = self._auth_data(options["rpId"], FLAGS.UP | FLAGS.UV)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signed = bytes(auth_data) + hashlib.sha256(bytes(client_data)).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": websafe_encode(self.credential_id),
            "rawId": websafe_encode(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": websafe_encode(client_data),
                "authenticatorData": websafe_encode(auth_data),
                "signature": websafe_encode(signature),
                "userHandle": websafe_encode(self.user_handle),
            },
            "clientExtensionResults": {},
        }
