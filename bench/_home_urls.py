"""The project's URLs plus one bare page: a template that extends the base layout and shows nothing, served
through the same middleware, session, context processors and navigation as the home. The home benchmark's
baseline."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.template import engines
from django.urls import path

from zeus.urls import urlpatterns as project

BARE = engines["django"].from_string('{% extends "base.html" %}{% block content %}<h1>Zeus</h1>{% endblock %}')


@login_required
def bare(request):
    return HttpResponse(BARE.render({}, request))


urlpatterns = [path("bench/bare", bare), *project]
