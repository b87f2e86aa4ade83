"""The user's account (docs/accounts.md): django-allauth's sign-in, e-mail, password and second factors in
Zeus's layout and languages, the staff's second factor for the admin, the security page and device tokens."""
