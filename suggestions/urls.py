from django.urls import path

from suggestions import api

urlpatterns = [
    path("suggestions", api.SuggestionListView.as_view()),
    path("suggestions/<int:suggestion_id>/dismiss", api.SuggestionDismissView.as_view()),
    path("suggestions/<int:suggestion_id>/complete", api.SuggestionCompleteView.as_view()),
    path("recurring", api.RecurringListView.as_view()),
    path("recurring/<int:series_id>/dismiss", api.RecurringDismissView.as_view()),
]
