"""Account pages (Django's auth views plus sign-up) and the home redirect."""

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_http_methods

from zeus.services import profile_update


@require_http_methods(["GET", "POST"])
def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            # A newcomer reads Zeus in the language their browser asked for (zeus/i18n.py chose it).
            profile_update(user=user, language=request.LANGUAGE_CODE)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("/")
    return render(request, "registration/signup.html", {"form": form})


def home(request):
    return redirect("/chat" if request.user.is_authenticated else "/accounts/login/")


urlpatterns = [
    path("", home),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", signup, name="signup"),
]
