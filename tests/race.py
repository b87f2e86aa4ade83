"""Jobs started at the same instant, as two workers, two clicks or two deliveries race in production."""

import threading

from django.db import connections


def at_once(*jobs, timeout: float = 30) -> list:
    """Runs each job in its own thread, all released together by a barrier; each thread closes its own database
    connections. The jobs' results in their order; the first exception a job raised is raised here."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(index, job):
        try:
            barrier.wait(timeout=timeout)
            results[index] = job()
        except Exception as exc:  # raised again below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index, job)) for index, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if errors:
        raise errors[0]
    return results
