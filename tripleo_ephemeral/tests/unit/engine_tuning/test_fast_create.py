"""The fast create's pure parts (the create itself: functional tests)."""

from tripleo_ephemeral.engine_tuning import fast_create


def test_no_pause_while_resources_change_state_then_backing_off():
    fast = fast_create._Create(service=None)
    fast.changes = 3
    assert fast.next_pause(1) == 0.0
    pauses = [fast.next_pause(1) for _ in range(12)]
    assert pauses[:3] == [0.001, 0.002, 0.004]
    assert pauses == sorted(pauses) and pauses[-1] == 1
    fast.changes += 1
    assert fast.next_pause(1) == 0.0


def test_the_pause_never_exceeds_heats_own():
    fast = fast_create._Create(service=None)
    assert max(fast.next_pause(0.01) for _ in range(20)) == 0.01


def test_outside_a_fast_create_there_is_none():
    assert fast_create.current() is None
