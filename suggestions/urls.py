from django.urls import path

from suggestions import api

urlpatterns = [
    path("suggestions", api.SuggestionListView.as_view()),
    path("suggestions/<int:suggestion_id>/dismiss", api.SuggestionDismissView.as_view()),
    path("suggestions/<int:suggestion_id>/complete", api.SuggestionCompleteView.as_view()),
]
