"""allauth's passkey forms with their one unlabelled field named in the reader's language (allauth leaves
the label to Django, which writes the field's name in English)."""

from allauth.mfa.webauthn.forms import AddWebAuthnForm, EditWebAuthnForm
from django.utils.translation import gettext_lazy as _


class AddPasskeyForm(AddWebAuthnForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")


class EditPasskeyForm(EditWebAuthnForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")
