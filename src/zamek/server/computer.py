"""The computer's turns of both games, scheduled from the database and thought out in a pool of processes.

A change that leaves the computer to move stores a job for it (``computer_jobs``, due after a pause in which
a person may still take their move back), in the same transaction as the change. Every process of a server
runs a :class:`ComputerPlayer`: it claims due jobs for a lease (on PostgreSQL with ``FOR UPDATE SKIP
LOCKED``, so that one process takes each), thinks in its pool (of processes, or of threads for a small
server and the tests), and stores the turn only on the revision the job was due on: an undo in the moment
before it replies cancels its move. Nothing waits while a pause runs: a job is simply not due yet.

Nothing is lost when something fails. A failed write is retried a moment later; a process that dies leaves
its lease to run out, and another process takes the job (the lease is the watchdog); a pool whose process
was killed is replaced and the job tried again; a position the computer cannot play (a bug) is marked on the
job, shown to the player, and tried again only once the game changes. The computer's choices come from the
game's seed and the move number (the games' seeding), so whichever process plays a turn plays the same one.

The computer's time is shared fairly between clients (their addresses, :func:`zamek.server.throttle.client_key`):
each time a thinker is free, of the turns due it begins one of the client with the fewest turns being thought out
here, and of those the one served longest ago (round-robin), so that a game's reply never waits behind another
client's hundred. A client may have at most ``queue_cap`` games waiting for the computer at once
(:meth:`ComputerPlayer.make_room`). Whose game is whose is known to the process that served its requests, which
names it just after storing the change (:meth:`ComputerPlayer.note`): a turn of a game of no known client waits
``UNKNOWN_GRACE_SECONDS`` for it, then the game is a client of its own (one made before the server started, or
served by another process) until its player moves here.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from sqlalchemy.exc import SQLAlchemyError

from zamek.kit.play import Thinking
from zamek.kit.pools import process_pool
from zamek.server.db import Repository
from zamek.server.errors import ServiceError
from zamek.server.games import MoveInfo, Think, Thought
from zamek.server.games.castle import think
from zamek.server.sessions import Sessions
from zamek.server.tables import Job
from zamek.server.throttle import Throttled

__all__ = ["ComputerPlayer", "computer_pool", "think", "worker_name"]

log = logging.getLogger("zamek.server")

LEASE_SECONDS: Final = 15.0
"""How long a claimed turn is a process's alone; a process that dies gives it up when the lease runs out."""
POLL_SECONDS: Final = 0.1
"""How often the jobs are looked at when nothing has told this process of a new one (another process's)."""
RETRY_SECONDS: Final = 1.0
"""The pause before a turn whose write failed is tried again."""
CANDIDATES: Final = 1_000
"""The waiting turns looked at each time (the earliest due first), to choose fairly between their clients."""
REMEMBERED_CLIENTS: Final = 100_000
"""The games whose client is remembered (then the longest unplayed are forgotten), and the clients' last turns."""
QUEUE_RETRY_SECONDS: Final = 2
"""What a client over its ``queue_cap`` is told to wait (``Retry-After``)."""
UNKNOWN_GRACE_SECONDS: Final = 0.5
"""How long a turn due in a game of no known client waits for the request that made it to name its client (from
when this process first saw it due: the game clocks' time may be a test's)."""


def computer_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` processes to think in, started afresh (this process runs threads), each ending
    soon after the server process that made the pool dies."""
    return process_pool(processes, spawn=True)


def worker_name() -> str:
    """This process, as the jobs it claims name it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"[:64]


class ComputerPlayer:
    """Plays the computer's turns that are due (see the module's doc)."""

    def __init__(self, sessions: Sessions, repo: Repository, processes: int = 0, threads: int = 2,
                 lease: float = LEASE_SECONDS, clock: Callable[[], float] = time.time, queue_cap: int = 0) -> None:
        self.sessions = sessions
        self.repo = repo
        self.processes = processes
        self.slots = max(1, processes or threads)
        self.lease = lease
        self.now = clock
        self.name = worker_name()
        self._pool: Executor | None = None
        self._threads = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="zamek-bot")
        self._claimed: set[Job] = set()
        self._lock = threading.Lock()
        self._poke = threading.Event()
        self._stopping = threading.Event()
        self._loop: threading.Thread | None = None
        self.longest_decision = 0.0
        """The computer's longest decision since this server started, in seconds (of its replies here)."""
        self.longest_turn = 0.0
        """Its longest turn, all that turn's decisions together: what a person waited for."""
        self.replied: Callable[[Thinking], None] = lambda _thinking: None
        """Told how long each reply took to think (the server's metrics)."""
        self.queue_cap = queue_cap
        """A client's games that may wait for the computer at once (0: any number)."""
        self._owners: OrderedDict[str, str] = OrderedDict()
        """Each game's client (see the module's doc)."""
        self._waiting: Counter[str] = Counter()
        """By client, at the last look at the jobs: its turns waiting, or being thought out here."""
        self._noted: Counter[str] = Counter()
        """By client, its turns that became due since that look (:meth:`note`)."""
        self._served: dict[str, int] = {}
        """When each client last had a turn begun (the number of turns begun until then)."""
        self._begun = 0
        self._unnamed: dict[str, float] = {}
        """The due turns of games of no known client, and when this process first saw each (``time.monotonic``)."""

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self._loop = threading.Thread(target=self._run, name="zamek-computer", daemon=True)
        self._loop.start()

    def close(self) -> None:
        """Stop: the turns being thought out are finished, those claimed but not begun are given back."""
        self._stopping.set()
        self._poke.set()
        if self._loop is not None:
            self._loop.join(timeout=5)
        self._threads.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            pool, self._pool = self._pool, None
            unplayed, self._claimed = list(self._claimed), set()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        for job in unplayed:  # given back at once, rather than when their leases run out
            self._give_back(job)

    def poke(self) -> None:
        """A turn may be due: look at the jobs now."""
        self._poke.set()

    # -------------------------------------------------------------- fairness

    def client_of(self, game_id: str) -> str:
        """Whose game it is (see the module's doc); a game of no known client is a client of its own."""
        return self._owners.get(game_id) or f"game:{game_id}"

    def note(self, game_id: str, client: str, waits: bool) -> None:
        """``client`` made ``game_id`` or moved in it; ``waits``: the computer is now to move there."""
        with self._lock:
            self._own(game_id, client)
            if waits:
                self._noted[client] += 1
        if waits:
            self.poke()  # its turn may have been left waiting for its client's name

    def _own(self, game_id: str, client: str) -> None:
        """The caller holds the lock."""
        self._owners[game_id] = client
        self._owners.move_to_end(game_id)
        if len(self._owners) > REMEMBERED_CLIENTS:
            self._owners.popitem(last=False)

    def queued(self, client: str) -> int:
        """The client's games waiting for the computer (or being thought out here)."""
        with self._lock:
            return self._waiting[client] + self._noted[client]

    def make_room(self, client: str) -> None:
        """Refuse (429 ``computer-busy``) a change that would leave ``client`` more than ``queue_cap`` games waiting
        for the computer."""
        if self.queue_cap and self.queued(client) >= self.queue_cap:
            raise Throttled(QUEUE_RETRY_SECONDS, "computer-busy", limit=self.queue_cap)

    def _choose(self, waiting: list[tuple[str, int]], moment_ms: int) -> list[str]:
        """The due turns of ``waiting`` (earliest due first) to begin now, one at a time for the free thinkers: of
        the client with the fewest turns being thought out, then of the one served longest ago; and count each
        client's turns waiting."""
        with self._lock:
            running = Counter(self.client_of(job.game_id) for job in self._claimed)
            self._waiting = running + Counter(self.client_of(game_id) for game_id, _ in waiting)
            self._noted = Counter()
            due: dict[str, deque[str]] = {}
            now = time.monotonic()
            unnamed: dict[str, float] = {}
            for game_id, due_ms in waiting:
                if due_ms > moment_ms:
                    continue
                if game_id not in self._owners:
                    unnamed[game_id] = seen = self._unnamed.get(game_id, now)
                    if now - seen < UNKNOWN_GRACE_SECONDS:
                        continue
                due.setdefault(self.client_of(game_id), deque()).append(game_id)
            self._unnamed = unnamed
            chosen: list[str] = []
            while due and len(chosen) < self.slots - len(self._claimed):
                client = min(due, key=lambda c: (running[c], self._served.get(c, 0)))
                chosen.append(due[client].popleft())
                running[client] += 1
                self._begun += 1
                self._served[client] = self._begun
                if not due[client]:
                    del due[client]
            if len(self._served) > REMEMBERED_CLIENTS:  # only the clients with turns waiting need their place
                self._served = {c: n for c, n in self._served.items() if c in self._waiting}
            return chosen

    def _wait(self, waiting: list[tuple[str, int]], moment_ms: int) -> float:
        """How long to sleep unless poked: until the next turn falls due, if a thinker is free for it (else a turn
        that ends pokes the loop), but no longer than ``POLL_SECONDS`` (another process's new turns)."""
        with self._lock:
            free = self.slots > len(self._claimed)
        later = [due_ms for _, due_ms in waiting if due_ms > moment_ms]
        if free and later:
            return min(POLL_SECONDS, max(0.0, (min(later) - moment_ms) / 1000))
        return POLL_SECONDS

    # -------------------------------------------------------------- schedule

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._poke.clear()
            wait = POLL_SECONDS
            try:
                moment = self._ms()
                waiting = self.repo.waiting_jobs(moment, CANDIDATES)
                chosen = self._choose(waiting, moment)
                jobs = self.repo.claim_jobs(self.name, moment, round(self.lease * 1000), len(chosen),
                                            chosen) if chosen else []
                for job in jobs:
                    with self._lock:
                        self._claimed.add(job)
                    self._threads.submit(self._play, job)
                wait = self._wait(waiting, moment)
            except SQLAlchemyError:
                log.warning("the computer's jobs cannot be read now; trying again", exc_info=True)
                wait = RETRY_SECONDS
            except RuntimeError:  # the thread pool is shut down: the server stops
                return
            self._poke.wait(wait)

    def _ms(self) -> int:
        return round(self.now() * 1000)

    # ------------------------------------------------------------------ play

    def _play(self, job: Job) -> None:
        try:
            self._turn(job)
        except ServiceError:
            pass  # the game was deleted, or changed before the turn was stored: its job went with the change
        except (SQLAlchemyError, BrokenProcessPool) as exc:
            if isinstance(exc, BrokenProcessPool):
                self._replace_pool()
            log.warning("the computer's turn in game %s failed; trying again", job.game_id, exc_info=True)
            self._try(lambda: self.repo.retry_job(job, self._ms() + round(RETRY_SECONDS * 1000)))
        except Exception as exc:  # a bug: shown to the player instead of trying forever
            log.exception("the computer player failed in game %s", job.game_id)
            error = str(exc) or type(exc).__name__  # the detail a person reads in the catalogue's words
            self._try(lambda: self.repo.fail_job(job, error))
        finally:
            with self._lock:
                self._claimed.discard(job)
            self._poke.set()

    def _give_back(self, job: Job) -> None:
        self._try(lambda: self.repo.retry_job(job, self._ms()))

    @staticmethod
    def _try(write: Callable[[], None]) -> None:
        try:
            write()
        except SQLAlchemyError:
            log.warning("the computer's job cannot be updated; its lease will run out", exc_info=True)

    def _turn(self, job: Job) -> None:
        with self._lock:  # its next turns (a card game's computer seats in a row) need not wait for a client's name
            if job.game_id not in self._owners:
                self._own(job.game_id, self.client_of(job.game_id))
        live = self.sessions.get(job.game_id)
        with live.lock:
            if live.revision != job.revision or not live.computer_to_move():
                self.repo.drop_job(job)  # a job left by an older version, or one whose game moved on
                return
            kind = live.kind
            args = kind.think_args(live)
        thought = self._think(kind.think(), *args)
        self._note(job, thought)
        texts = thought.moves
        with live.lock:
            if live.revision != job.revision or live.deleted:
                return  # changed while the computer thought (an undo): the change dropped this job
            state = live.state.copy()
            actions = [kind.parse(t) for t in texts]
            infos: list[MoveInfo] = [kind.step(state, action) for action in actions]
            if actions:
                self.sessions.commit(live, state, actions, infos)

    def _think(self, thinking: Think, *args: Any) -> Thought:
        if not self.processes:
            return thinking(*args)
        future: Future[Thought] = self._process_pool().submit(thinking, *args)
        return future.result()

    def _note(self, job: Job, thought: Thought) -> None:
        """Keep the longest decision and the longest turn since the server started, and log each reply's."""
        spent = thought.thinking
        with self._lock:
            self.longest_decision = max(self.longest_decision, spent.longest)
            self.longest_turn = max(self.longest_turn, spent.longest_turn)
        self.replied(spent)
        log.info("the computer replied in game %s: %d decisions in %d turns, %.2f s in all, longest decision "
                 "%.2f s, longest turn %.2f s", job.game_id, spent.decisions, spent.turns, spent.seconds,
                 spent.longest, spent.longest_turn)

    def _process_pool(self) -> Executor:
        with self._lock:
            if self._pool is None:
                self._pool = computer_pool(self.processes)
            return self._pool

    def _replace_pool(self) -> None:
        with self._lock:
            broken, self._pool = self._pool, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
