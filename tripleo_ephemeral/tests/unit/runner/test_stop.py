"""The runner's bounded engine stop (runner_stop.stop_engine)."""

import threading
import time

from tripleo_ephemeral.runner import stop as runner_stop


class Engine:
    def __init__(self, seconds):
        self.seconds = seconds
        self.release = threading.Event()

    def stop(self):
        self.release.wait(self.seconds)


def test_a_quick_stop_is_waited_for():
    assert runner_stop.stop_engine(Engine(0), grace=5) is True


def test_a_stop_waiting_on_work_in_flight_is_cut_at_the_grace():
    engine = Engine(600)  # Heat's stop draining a whole create
    started = time.monotonic()
    assert runner_stop.stop_engine(engine, grace=0.2) is False
    assert time.monotonic() - started < 5
    engine.release.set()
