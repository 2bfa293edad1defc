"""Carcassonne: The Castle (Zamek, 2020; The Castle, 2003; the Sokół expansion).

- ``rules``: the rules core, pure (no I/O, no global randomness); ``data``: the tiles and castles as data
  files and their loader (``new_game``, ``rules_for``).
- ``record``: saved games and replay; ``runner``: games by seed; ``seeding``: the one seeding convention;
  ``arena``: matches and the ladder between bots.
- ``bots``: the computer players; ``fast``: the compiled core (the rules and the bots' thinking in C);
  ``training``: fitting the bots' learned value and value network.
- ``analysis``: hints and the analysis of a saved game; ``terms``, ``report``: words for people;
  ``render``: ASCII pictures; ``stats``: tile statistics.
"""
