"""The rules core of the castle game: pure (no I/O, no global randomness), one concern a module.

- ``geometry``: sides, edge segments, space names.  ``tiles``: the tile model.  ``board``: the castle,
  its track, towers, gates and start spaces.  ``editions``: what differs between Zamek and The Castle 2003.
- ``rulesets``: the registry of editions, expansions and variants; rule sets by name.  ``rates``: every rate of
  scoring, stated once.  ``setup``: the setup a player chooses and the rules tables the engine plays with.
- ``fields``: a position's data.  ``regions``: features joined across tiles (union-find).  ``features``: the
  feature view.
- ``tokens``: the special tokens (wall tiles) and every effect they have.  ``chance``: draws and reveals.
- ``legality``: where a tile and a figure may go, what may be played now.
- ``scoring``: scoring as features close, the order question, the final scoring, and the previews the views and
  the bots ask (a feature's worth, an order choice's outcome).
- ``breakdown``: the itemised score lines.  ``state``: ``GameState`` and the turn's flow.  ``projection``: the
  scores if the game ended now (the final scoring applied to a position).
- ``actions``: the actions and their notation.  ``position``: positions as text.  ``errors``: what the core
  raises for bad input.

Reading the data files is :mod:`zamek.castle.data.loader`' job; ``zamek.new_game(setup)`` starts a game.
"""
