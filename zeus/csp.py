"""The Content-Security-Policy header (docs/security.md): django-csp's middleware, with the policy built once.

django-csp builds both policies anew for every response: the policy's parts copied into a dict
(`dataclasses.asdict`), every directive copied, the string joined. That was 0.04-0.07 ms a request (a minimal API
request takes 0.8 ms), for the same two strings each time (measured in process, docs/security.md). A response that no
decorator gave a policy of its own (`csp_update`, `csp_replace`, `csp`) and a request whose nonce nobody read
get the strings built the first time; any other response goes through django-csp as it is. The strings are
built again when a test changes the policy settings.
"""

import functools

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.exceptions import CSPNonceError
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# What a decorator leaves on a response for django-csp to build its own policy from.
_OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
# The two headers: the setting each is built from, and what exempts a response from it.
_HEADERS = (
    ("CONTENT_SECURITY_POLICY", HEADER, "_csp_exempt"),
    ("CONTENT_SECURITY_POLICY_REPORT_ONLY", HEADER_REPORT_ONLY, "_csp_exempt_ro"),
)


@functools.cache
def _policies() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Each header with its value for the settings' policy (empty when there is none), its exempting attribute
    and the path prefixes it skips."""
    return [
        (
            header,
            build_policy(report_only=header == HEADER_REPORT_ONLY),
            exempt,
            tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()),
        )
        for setting, header, exempt in _HEADERS
    ]


@receiver(setting_changed)
def _forget_policy(setting, **kwargs):
    if setting in {name for name, _, _ in _HEADERS}:
        _policies.cache_clear()


def _nonce_after_header():
    raise CSPNonceError("request.csp_nonce was read after the CSP header was written: it would not be in the header.")


class PolicyMiddleware(CSPMiddleware):
    def process_response(self, request, response):
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _OWN_POLICY
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # as django-csp: Django's debug pages carry inline styles
        for header, policy, exempt, excluded in _policies():
            if (
                policy
                and header not in response
                and not getattr(response, exempt, False)
                and not request.path_info.startswith(excluded)
            ):
                response[header] = policy
        # As django-csp: a nonce asked for once the header is written is refused.
        request.csp_nonce = CheckableLazyObject(_nonce_after_header)
        return response
