"""zeus.collector.paused: the cyclic collector off inside, back on after, nested and across threads."""

import gc
import threading

from zeus import collector


def test_it_is_off_inside_and_back_on_after_even_nested_or_on_error():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still holds it
    assert gc.isenabled()
    try:
        with collector.paused():
            raise RuntimeError
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_it_leaves_alone_a_collector_someone_else_turned_off():
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_last_of_two_threads_turns_it_back_on():
    inside, release = threading.Event(), threading.Event()

    def hold():
        with collector.paused():
            inside.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    inside.wait(5)
    with collector.paused():
        pass
    assert not gc.isenabled()  # the other thread's block is still open
    release.set()
    other.join()
    assert gc.isenabled()


def test_as_a_decorator_each_call_pauses():
    @collector.paused()
    def enabled_inside() -> bool:
        return gc.isenabled()

    assert enabled_inside() is False and enabled_inside() is False
    assert gc.isenabled()


def test_a_gunicorn_worker_freezes_what_it_loaded_views_included():
    """gunicorn.conf.py's post_worker_init, in a fresh interpreter as a worker is: the URLconf's view modules
    are imported first and then frozen with the rest of start-up, so the collector's passes skip them; and
    the worker's threads take the GIL for the longer turn gunicorn.conf.py sets."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = (
        "import gc, runpy, sys, django; django.setup()\n"
        "assert 'plans.api' not in sys.modules and gc.get_freeze_count() == 0\n"
        "runpy.run_path('gunicorn.conf.py')['post_worker_init'](None)\n"
        "print('plans.api' in sys.modules, gc.get_freeze_count(), len(gc.get_objects()), sys.getswitchinterval())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "zeus.settings.test"}
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    views_loaded, frozen, left, interval = out.stdout.split()
    assert views_loaded == "True" and float(interval) == 0.02
    assert int(frozen) > 100_000 and int(left) < 1_000
