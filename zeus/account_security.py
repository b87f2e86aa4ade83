"""The second factor asked for by the actions that end an account (erasure, and its cancellation by password).

One place, so that wiring the accounts' multi-factor authentication is one change here: where a user has a
factor (allauth's TOTP or a recovery code), `code` must be a valid one; where the user has none, nothing more is
asked. Zeus has no second factor yet, so every user is one without: the integrator replaces `has_second_factor`
with allauth's `allauth.mfa.utils.is_mfa_enabled(user)` and checks `code` with allauth's TOTP and recovery codes.
"""


def has_second_factor(user) -> bool:
    return False


def second_factor_ok(user, code: str | None) -> bool:
    """True when `code` satisfies the user's second factor, or when the user has none."""
    return not has_second_factor(user)
