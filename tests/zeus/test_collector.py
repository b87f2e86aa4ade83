"""zeus.collector.freeze_loaded: what a worker loaded is left out of the collector's passes."""


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
