"""The deploy's seconds per phase (:mod:`tripleo_ephemeral.lap_clock`)."""

import os

from tripleo_ephemeral import lap_clock as phases


class FakeClock:

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_laps_add_up_to_the_whole_run_in_the_order_they_ran():
    clock = FakeClock()
    clock_phases = phases.Phases(clock)
    for name, seconds in (('checks', 0.5), ('launch', 2.0),
                          ('create', 15.0), ('checks', 0.25)):
        clock.now += seconds
        clock_phases.lap(name)
    assert clock_phases.values() == {'checks': 0.75, 'launch': 2.0,
                                     'create': 15.0}
    assert list(clock_phases.values()) == ['checks', 'launch', 'create']


def test_a_part_moves_out_of_its_phase_never_more_than_it_has():
    clock = FakeClock()
    clock_phases = phases.Phases(clock)
    clock.now += 1.0
    clock_phases.lap('stop')
    clock_phases.move(0.75, 'stop', 'dump')
    assert clock_phases.values() == {'stop': 0.25, 'dump': 0.75}
    clock_phases.move(5.0, 'stop', 'dump')
    assert clock_phases.values() == {'stop': 0.0, 'dump': 1.0}
    clock_phases.move(None, 'stop', 'dump')  # no dump was made
    clock_phases.move(1.0, 'unknown', 'dump')
    assert clock_phases.values() == {'stop': 0.0, 'dump': 1.0}


def test_startup_is_the_process_age_where_proc_tells_it():
    age = phases.process_age()
    if not os.path.exists('/proc/self/stat'):
        assert age is None
        return
    assert 0.0 <= age < 24 * 3600
    started = phases.started()
    assert list(started.values()) == ['startup']
    assert phases.process_age(pid='no-such-pid') is None


def test_the_venv_build_before_tools_dev_execs_is_not_startup():
    """tools/dev.py says when it exec'd into the command (its pid and the
    boot clock): the process's time before is ``venv``, after ``startup``;
    a variable inherited by another process is not believed."""
    if phases.process_age() is None:
        return
    import time
    now = time.clock_gettime(time.CLOCK_BOOTTIME)
    age = phases.process_age()
    exec_at = now - age / 2  # half the process's life was the venv
    mine = {phases.EXEC_ENV: '%d %.3f' % (os.getpid(), exec_at)}
    started = phases.started(environ=mine).values()
    assert list(started) == ['venv', 'startup']
    assert abs(started['venv'] - age / 2) < 0.5
    assert abs(started['startup'] - age / 2) < 0.5
    inherited = {phases.EXEC_ENV: '%d %.3f' % (os.getpid() + 1, exec_at)}
    assert list(phases.started(environ=inherited).values()) == ['startup']
    assert phases.exec_age({phases.EXEC_ENV: 'garbage'}) is None
