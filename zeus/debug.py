"""DEBUG's error page, kept from asking a dead database again.

Django's technical 500 page prints the current user, which for a lazy `request.user` is a session read
and a user query: with PostgreSQL down that is one more wait on the pool for every error page (the whole
request took a minute). When the error is a dependency's, the page says so instead of asking.
"""

from django.views.debug import ExceptionReporter

from zeus.dependencies import is_dependency_down


class DependencyAwareExceptionReporter(ExceptionReporter):
    def get_traceback_data(self):
        if self.request is not None and is_dependency_down(self.exc_value):
            self.request.user = "[not read: a dependency is down]"
        return super().get_traceback_data()
