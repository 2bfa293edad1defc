"""The web app's refusals: an exception that the app answers as ``{"error", "code", "rule", "params", "message"}``.

A refusal holds no sentence. It has a kind (``error``: what sort of refusal it is, as the page tells them apart:
``not-found``, ``stale``, ``illegal-move``...) and a message of the catalogue: a refusal of the web layer is the
message ``server.<code>`` with its values; one that carries an engine's error (a move the rules refuse, a saved game
that does not replay) is that error's own message (``error.<code>``, the rule it enforces among its values). The app
says the message in the request's language, in the words of the game's edition; ``str()`` is English, for the logs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

from zamek.i18n import BASE, Message, say
from zamek.kit.errors import IllegalActionError, MalformedActionError, RecordError, ZamekError

log = logging.getLogger("zamek.server")

SERVER_KEYS: Final = "server."
"""The catalogue's keys of the web layer's refusals begin with this (``server.game-over``)."""

ENGINE_KINDS: Final[dict[type[ZamekError], str]] = {
    MalformedActionError: "malformed-move",
    IllegalActionError: "illegal-move",
    RecordError: "invalid-record",
}
"""The kind of refusal of each of the engines' errors (the first class an error is an instance of)."""


class InvalidRequest(ValueError):
    """What a request's model refuses in its own checks (a Pydantic validator raises it): the message
    ``server.<code>`` of the catalogue, with ``params``. The app answers it as a 422 refusal with that message."""

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, object] = params

    @property
    def message(self) -> Message:
        return Message(f"{SERVER_KEYS}{self.code}", self.params)

    def __str__(self) -> str:
        return self.message.text()


class ServiceError(Exception):
    """A request the service refuses: ``status`` is the HTTP status to answer with, ``error`` the kind of refusal,
    ``code`` its message in the catalogue (``server.<code>``) filled in with ``params``."""

    def __init__(self, status: int, error: str, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.status = status
        self.error = error
        self.code = code
        self.rule: str | None = None
        self.params: dict[str, object] = params
        self.message = Message(f"{SERVER_KEYS}{code}", params)
        self.reason: ZamekError | None = None

    @classmethod
    def of(cls, status: int, exc: ZamekError | InvalidRequest, error: str | None = None) -> ServiceError:
        """The refusal that carries an engine's error (or a request's model's): its code, rule, values and message
        are the error's; its kind is ``error`` or else the one of the error's class (``illegal-move``,
        ``malformed-move``, ``invalid-record``)."""
        kind = error or next((k for t, k in ENGINE_KINDS.items() if isinstance(exc, t)), "invalid")
        refusal = cls(status, kind, exc.code)
        refusal.params, refusal.message = exc.params, exc.message
        if isinstance(exc, ZamekError):
            refusal.rule, refusal.reason = exc.rule, exc
        return refusal

    def to_json(self) -> dict[str, Any]:
        """``{"error", "code", "rule", "params"}``: the refusal without its words (values that are words or players
        as their JSON: ``{"term": key}``, ``{"seat": n}``, a nested error as ``{"key", "params"}``)."""
        if self.reason is not None:
            return {"error": self.error, **self.reason.to_json()}
        return {"error": self.error, "code": self.code, "rule": None, "params": self.message.to_json()["params"]}

    def text(self, lang: str = BASE, edition: str | None = None) -> str:
        """The refusal in ``lang``, in the words of ``edition``."""
        return self.message.text(lang, edition)

    def answer(self, lang: str = BASE, edition: str | None = None) -> dict[str, Any]:
        """The refusal as the API answers it: ``to_json()`` and its ``message`` in ``lang`` and the words of
        ``edition``. A message the catalogue cannot say (a bug: a test checks every key) is logged, and the
        refusal is said in general words rather than failing the answer."""
        try:
            text = self.text(lang, edition)
        except (KeyError, TypeError, ValueError):
            log.exception("the refusal %s %s cannot be said in %s", self.error, self.code, lang)
            text = say("server.refused", lang, edition, error=self.error, code=self.code)
        return {**self.to_json(), "message": text}

    def __str__(self) -> str:
        try:
            return self.text()
        except (KeyError, TypeError, ValueError):  # a message the catalogue lacks must not hide the refusal
            return f"{self.error}: {self.code} {self.params!r}"


def computer_failed(detail: str | None, lang: str) -> str | None:
    """Why the computer cannot play its turn (a bug: ``detail`` is the failure's own), in ``lang``."""
    return None if detail is None else say("server.computer-failed", lang, None, detail=detail)


def reloaded(exc: BaseException) -> bool:
    """Whether a refused commit brought the match in memory up to date from the database (it was stale): what the
    request had changed in memory is then the database's, not to be put back."""
    return isinstance(exc, ServiceError) and exc.error == "stale"


@contextmanager
def restored_on_failure(restore: Callable[[], None]) -> Iterator[None]:
    """Around a commit of what a request changed in memory: if the commit fails, ``restore`` puts it back, unless the
    failure brought the match up to date from the database (``reloaded``)."""
    try:
        yield
    except Exception as exc:
        if not reloaded(exc):
            restore()
        raise


@contextmanager
def refusing_bad_records(log: logging.Logger, what: str) -> Iterator[None]:
    """Answer a saved game sent by a caller that does not replay with 400 ``invalid-record``, never a server
    error: the engine's own refusal says what is wrong; anything else its checks let through is logged as
    ``what`` failed to replay."""
    try:
        yield
    except ZamekError as exc:
        raise ServiceError.of(400, exc, "invalid-record") from None
    except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        log.warning("%s failed to replay", what, exc_info=exc)
        raise ServiceError(400, "invalid-record", "record-unreadable", detail=type(exc).__name__) from None


PROBLEMS: Final[dict[str, tuple[str, str | None]]] = {
    "missing": ("missing", None),
    "extra_forbidden": ("extra", None),
    "string_too_long": ("text-long", "max_length"),
    "string_too_short": ("text-short", "min_length"),
    "too_long": ("list-long", "max_length"),
    "too_short": ("list-short", "min_length"),
    "greater_than_equal": ("at-least", "ge"),
    "greater_than": ("more-than", "gt"),
    "less_than_equal": ("at-most", "le"),
    "less_than": ("less-than", "lt"),
    "literal_error": ("choice", None),
    "enum": ("choice", None),
    "int_parsing": ("whole-number", None),
    "int_type": ("whole-number", None),
    "int_from_float": ("whole-number", None),
    "float_parsing": ("number", None),
    "float_type": ("number", None),
    "bool_parsing": ("yes-no", None),
    "bool_type": ("yes-no", None),
    "string_type": ("text", None),
    "list_type": ("list", None),
    "dict_type": ("object", None),
    "model_type": ("object", None),
    "model_attributes_type": ("object", None),
    "json_invalid": ("json", None),
}
"""Pydantic's kinds of error, each with its message in the catalogue (``server.problem.<key>``) and the value of
its context that the message names (a limit)."""
LIMITS: Final = {"max_length": "max", "min_length": "min"}


def _field(loc: Sequence[object]) -> str:
    """Where in a request a problem is: ``clock.minutes`` (the body's fields), ``move`` (a query parameter)."""
    parts = [str(p) for p in loc[1:]] if loc and loc[0] in ("body", "query", "path", "header", "cookie") else [
        str(p) for p in loc]
    return ".".join(parts) or (str(loc[0]) if loc else "request")


def _where(error: Mapping[str, Any]) -> str:
    """The field of one of Pydantic's errors (JSON that does not parse: the body, not the byte it fails at)."""
    loc = error.get("loc", ())
    return str(loc[0]) if error.get("type") == "json_invalid" and loc else _field(loc)


def _problem(error: Mapping[str, Any]) -> Message:
    """One of Pydantic's errors as a message of the catalogue (its own English text is left out)."""
    field = _where(error)
    context = error.get("ctx") or {}
    reason = context.get("error")
    if isinstance(reason, (ZamekError, InvalidRequest)):
        return Message(f"{SERVER_KEYS}problem.because", {"field": field, "reason": reason})
    key, limit = PROBLEMS.get(str(error.get("type")), ("invalid", None))
    params: dict[str, object] = {"field": field}
    value = context.get(limit) if limit is not None else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        params[LIMITS.get(str(limit), "limit")] = value
    elif limit is not None:
        key = "invalid"
    return Message(f"{SERVER_KEYS}problem.{key}", params)


def invalid_request(errors: Sequence[Mapping[str, Any]]) -> ServiceError:
    """The 422 refusal of a request its model refuses (Pydantic's ``errors``). A check of the model's own (a
    validator raising :class:`InvalidRequest` or an engine's error) is answered with its message alone when it is
    the only problem; otherwise each problem is named with its field (``params.problems``, and Pydantic's own
    English in ``params.detail``)."""
    if len(errors) == 1:
        reason = (errors[0].get("ctx") or {}).get("error")
        if isinstance(reason, (ZamekError, InvalidRequest)):
            return ServiceError.of(422, reason, "invalid")
    problems = [_problem(e) for e in errors]
    return ServiceError(422, "invalid", "invalid-request", problems=problems,
                        field=_where(errors[0]) if errors else "request",
                        detail="; ".join(str(e.get("msg", "")) for e in errors))
