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
