"""A pseudo-locale: the base catalogue with every message's text accented, lengthened and wrapped in ⟦…⟧, as
translators' tools make one. Played in it, any text on screen outside the brackets bypassed the catalogue, and
text that grows by a third shows where a longer language would not fit.

``python -m zamek.i18n.pseudo FOLDER`` writes it as ``FOLDER/xx``; start the program with
``ZAMEK_CATALOGUES=FOLDER`` and choose the language ``xx``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Final

from zamek.i18n import BASE, LANGUAGE_FILE, catalogue
from zamek.i18n.messageformat import literals, parse, unparse

PSEUDO: Final = "xx"
OPEN: Final = "⟦"
CLOSE: Final = "⟧"
_ACCENTS: Final = str.maketrans("aceinorsuyzACEINORSUYZ", "àçéîñöŕšûýžÀÇÉÎÑÖŔŠÛÝŽ")
_WRAPPED: Final = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_DATA: Final = re.compile(r"^[A-Za-z]{1,2}\d+$")
"""Words that are data, not text: tile ids (Z53, S5) and space names (e10)."""


def pseudo_message(text: str) -> str:
    """Return a message of the base catalogue as the pseudo-locale says it: accented, a third longer, wrapped."""
    pattern = parse(text)
    letters = sum(c.isalpha() for piece in literals(pattern) for c in piece)
    accented = unparse(pattern, lambda piece: piece.translate(_ACCENTS))
    return f"{OPEN}{accented}{'~' * (letters // 3)}{CLOSE}"


def write_pseudo_locale(folder: Path, lang: str = PSEUDO) -> Path:
    """Write the pseudo-locale's catalogue into ``folder/lang`` and return that folder."""
    target = folder / lang
    target.mkdir(parents=True, exist_ok=True)
    name = f"{OPEN}{'Pseudo'.translate(_ACCENTS)}{CLOSE}"
    (target / LANGUAGE_FILE).write_text(f'[language]\nname = "{name}"\nplural_rules = "{BASE}"\n', encoding="utf-8")
    base = catalogue(BASE)
    lines = [f"{json.dumps(key, ensure_ascii=False)} = {json.dumps(pseudo_message(base.own[key]), ensure_ascii=False)}"
             for key in sorted(base.keys())]
    (target / "messages.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _words(text: str) -> list[str]:
    return [word for word in re.findall(r"[^\W\d_][\w'’-]*", text) if not _DATA.match(word)]


def unwrapped(text: str) -> list[str]:
    """Return the words of ``text`` that no message of the pseudo-locale says: words outside the brackets, and
    words inside them left unaccented (English put into a message as a value). Data such as Z53 or e10 aside."""
    inside: list[str] = []
    previous = None
    while previous != text:
        previous = text
        inside.extend(m.group(0) for m in _WRAPPED.finditer(text))
        text = _WRAPPED.sub(" ", text)
    plain = set("aceinorsuyzACEINORSUYZ")
    english = [word for piece in inside for word in _words(piece) if plain & set(word)]
    return _words(text) + english


if __name__ == "__main__":  # pragma: no cover - a translator's tool
    print(write_pseudo_locale(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
