"""What a fast create keeps in its thread, and the creates running."""

import threading

local = threading.local()

#: Root stacks whose fast create is running: id -> the engine's
#: ThreadGroupManager (told to cancel them when the engine stops).
running: dict[str, object] = {}

running_lock = threading.Lock()

#: Set when the engine stops: a fast create's nested stacks fail at once.
stopping = threading.Event()

#: The longest pause (s) of the root task while nothing changes state;
#: Heat's own pause between steps, when shorter, wins.
MAX_IDLE_PAUSE = 1.0

FIRST_IDLE_PAUSE = 0.001


class Create:
    """What one fast create keeps in its thread."""

    def __init__(self, service):
        self.service = service
        self.context = None  # the tree's request context
        #: in-process nested stacks not released: id -> (stack, runner)
        self.nested = {}
        self.created = 0  # nested stacks created in this thread
        #: finished ones let go (:mod:`.fast_create_release`)
        self.released = 0
        self.reloaded = 0  # released ones loaded again by their parent
        self.changes = 0  # resource state changes so far
        self.seen = 0  # ``changes`` at the last pause
        self.pause = 0.0
        self.paused = 0.0  # seconds paused in all

    def next_pause(self, wait_time):
        """The pause before the next step of a task that would have
        paused ``wait_time``: none after a step that changed a resource's
        state, else twice the last, up to ``wait_time``."""
        if self.changes != self.seen:
            self.seen, self.pause = self.changes, 0.0
        else:
            self.pause = min(max(self.pause * 2, FIRST_IDLE_PAUSE),
                             wait_time, MAX_IDLE_PAUSE)
        self.paused += self.pause
        return self.pause


def current():
    """The fast create running in this thread, or None."""
    return getattr(local, 'create', None)
