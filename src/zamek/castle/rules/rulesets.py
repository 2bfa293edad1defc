"""Rule sets as values: the editions, expansions and variants a castle game is played with, found by key.

A rule set's name is its edition's key, then the keys of the expansions and variants it adds, joined by ``+``
in the order of this registry: ``zamek``, ``castle2003+sokol``, ``zamek+sokol+gate-guard``. The name is what
the command line (``--rules``), the web protocol, records and the environments carry; ``Setup.parse(name)``
reads one and ``str(setup)`` writes it. Everything that offers a choice of rules (the command line, the lobby
through ``/api/meta``, the benchmarks, the environments) lists ``RULE_SETS`` or ``OPTIONS`` instead of naming
them. ``docs/adding-a-variant.md`` lists what a new entry touches.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from zamek.castle.rules.editions import Edition
from zamek.kit.errors import SetupError

Kind = Literal["edition", "expansion", "variant"]


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One entry of the registry: an edition, an expansion or a variant."""

    key: str
    """Its key in rule-set names, records and the protocol."""
    kind: Kind
    rule_ids: tuple[str, ...]
    """The rules of ``RULES.md`` it brings (an edition: those it plays by)."""
    words: str
    """The key of its name in the catalogue (zamek.i18n: ``page.rules.<key>``)."""
    setup_field: str | None = None
    """The ``Setup`` field (a bool) that turns an expansion or variant on; None for an edition."""
    compiled_flag: str | None = None
    """The field of the compiled core's rules (``zc_rules`` in ``zamek_core.h``) that plays it; None where the
    edition is told apart by its own rules (``Edition``'s properties)."""
    requires: tuple[str, ...] = ()
    """Keys of the options it needs (a variant of an expansion needs that expansion)."""


EDITION_OPTIONS: Final = (
    RuleOption("zamek", "edition", tuple(f"Z{n}" for n in range(1, 23)), "page.rules.zamek"),
    RuleOption("castle2003", "edition", ("C1", "C2"), "page.rules.castle2003"),
)
"""The editions, the default first (their keys are ``Edition``'s values)."""

OPTIONS: Final = (
    RuleOption("sokol", "expansion", tuple(f"F{n}" for n in range(1, 8)), "page.rules.sokol", "sokol", "sokol"),
    RuleOption("gate-guard", "variant", ("F8",), "page.rules.gate-guard", "gate_guard", "gate_guard",
               requires=("sokol",)),
)
"""The expansions and variants, in the order their keys are written in a rule-set name."""

_EDITION_KEYS: Final = tuple(option.key for option in EDITION_OPTIONS)
_OPTION_BY_KEY: Final = {option.key: option for option in OPTIONS}
assert tuple(edition.value for edition in Edition) == _EDITION_KEYS, "every edition is registered, in order"


def rule_set_name(edition: Edition | str, keys: frozenset[str] | set[str]) -> str:
    """The name of the rule set of ``edition`` with the options ``keys``, in the registry's order."""
    return "+".join([Edition(edition).value, *(option.key for option in OPTIONS if option.key in keys)])


def parse_rule_set(name: str) -> tuple[Edition, frozenset[str]]:
    """Read a rule-set name: its edition and the keys of its options; raise SetupError (a ValueError) naming
    what is wrong.

    The edition may be left out (``sokol`` is ``zamek+sokol``); the options may come in any order.
    """
    if not isinstance(name, str) or not name.strip():
        raise SetupError("rule-set-not-a-name", name=repr(name))
    parts = [part.strip() for part in name.strip().lower().split("+")]
    edition = Edition.ZAMEK
    if parts[0] in _EDITION_KEYS:
        edition = Edition(parts.pop(0))
    keys: set[str] = set()
    for part in parts:
        if part in _EDITION_KEYS:
            raise SetupError("one-edition", name=name)
        if part not in _OPTION_BY_KEY:
            raise SetupError("unknown-rule-part", name=name, part=part,
                             known=[*_EDITION_KEYS, *_OPTION_BY_KEY])
        if part in keys:
            raise SetupError("rule-part-twice", name=name, part=part)
        keys.add(part)
    check_options(keys)
    return edition, frozenset(keys)


def check_options(keys: set[str] | frozenset[str]) -> None:
    """Raise SetupError (a ValueError) where an option is missing one it requires."""
    for key in sorted(keys):
        entry = _OPTION_BY_KEY[key]
        for needed in entry.requires:
            if needed not in keys:
                raise SetupError("option-needs", entry.rule_ids[0] if entry.rule_ids else None,
                                 option=key, needed=needed)


def option(key: str) -> RuleOption:
    """The registry's entry for ``key`` (an edition, expansion or variant); KeyError where there is none."""
    for entry in (*EDITION_OPTIONS, *OPTIONS):
        if entry.key == key:
            return entry
    raise KeyError(key)


def _every_rule_set() -> tuple[str, ...]:
    names = []
    for edition in Edition:
        for size in range(len(OPTIONS) + 1):
            for chosen in combinations(OPTIONS, size):
                keys = {entry.key for entry in chosen}
                try:
                    check_options(keys)
                except ValueError:
                    continue
                names.append(rule_set_name(edition, keys))
    return tuple(sorted(names, key=lambda n: (len(n.split("+")), n.split("+")[0] != "zamek", n)))


RULE_SETS: Final = _every_rule_set()
"""Every rule set's name: the fewest options first, Zamek before The Castle 2003 (``zamek`` first)."""
