"""The ``zamek knights`` commands: self-play, arena, replay, the strength table, and a terminal game."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from zamek.cli.options import COUNT, SEED, WORKERS, OutputFile, OutputFolder, fail, make_folder
from zamek.cli.progress import Progress, watched
from zamek.i18n import Message, Seat, Term, languages, say
from zamek.kit.errors import RecordError
from zamek.kit.records import read_record_file
from zamek.knights import record as records
from zamek.knights.arena import run_arena
from zamek.knights.bots import BOT_NAMES, KnightsBot, make_bot
from zamek.knights.rules.actions import Action, Choose, PlayerAction, Recruit
from zamek.knights.rules.cards import ARMY, TILES, Card, CastleKind, load_cards
from zamek.knights.rules.engine import MAX_PLAYERS, MIN_PLAYERS, KnightsSetup, KnightsState, Phase, View
from zamek.knights.rules.knowledge import deduce
from zamek.knights.rules.match import match_result, match_setups
from zamek.knights.runner import PlayedGame, bot_rng, play_game
from zamek.knights.seeding import SeededTiles
from zamek.knights.terms import card, card_name, cards_words, event_lines, reader_of, tile

LANG = click.option("--lang", type=click.Choice(languages()), default="en", show_default=True,
                    help="The language of what the game says (a catalogue of zamek.i18n).")
PLAYERS = click.option(
    "--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=3, show_default=True,
    help="Number of players.",
)


def _bots(spec: str, count: int) -> list[str]:
    """Return ``count`` bot names from one name or a comma-separated list of exactly ``count``."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise click.UsageError(f"--bots: give one name or {count} names separated by commas")
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    return names


@click.group()
def knights() -> None:
    """Rycerze i zamki: the card game for 2-4 players."""


@knights.command()
@PLAYERS
@click.option("--games", type=COUNT, default=10, show_default=True, help="Games (or matches, with --match).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Game i uses seed SEED + i.")
@click.option("--bots", "bot_spec", default="random", show_default=True,
              help=f"One bot for every seat or one per seat, comma-separated ({', '.join(BOT_NAMES)}, mc:N).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game, then a summary line.")
@click.option("--save", type=OutputFolder(), default=None, help="Save each game here.")
@click.option("--match", "as_match", is_flag=True, help="Play matches (K7): as many games as players, points added.")
def selfplay(
    players: int, games: int, seed: int, bot_spec: str, as_json: bool, save: Path | None, as_match: bool
) -> None:
    """Let computer players play each other (random players by default)."""
    bots = _bots(bot_spec, players)
    if save is not None:
        make_folder(save)
    wins = [0] * players
    total_points = [0] * players

    def one_game(game_seed: int, setup: KnightsSetup) -> tuple[PlayedGame, dict[str, Any]]:
        game = play_game(game_seed, bots, setup)
        result = game.state.result()
        assert result is not None
        if save is not None:
            rec = records.make_record(setup, game_seed, game.actions, game.state)
            (save / f"knights-{game_seed}.json").write_text(json.dumps(rec, indent=1), encoding="utf-8")
        line = {
            "seed": game_seed,
            "players": players,
            "bots": bots,
            "tiles": game.state.drawn,
            "points": list(result.points),
            "hand_sizes": list(result.hand_sizes),
            "ranking": list(result.ranking),
            "winner": result.winner,
            "actions": len(game.actions),
        }
        return game, line

    with Progress("matches" if as_match else "games", games, shown=watched(as_json)) as bar:
        for i in range(games):
            if as_match:
                lines, results = [], []
                for g, setup in enumerate(match_setups(players)):
                    game, line = one_game((seed + i) * players + g, setup)
                    lines.append(line)
                    results.append(game.state.result())
                outcome = match_result(match_setups(players)[0], [r for r in results if r is not None])
                entry: dict[str, Any] = {"match": seed + i, "games": lines, "points": list(outcome.points),
                                         "ranking": list(outcome.ranking), "winner": outcome.winner}
                points, winner = outcome.points, outcome.winner
            else:
                _, entry = one_game(seed + i, KnightsSetup(players=players))
                points, winner = tuple(entry["points"]), entry["winner"]
            wins[winner] += 1
            for p in range(players):
                total_points[p] += points[p]
            if as_json:
                bar.echo(json.dumps(entry))
            else:
                label = f"match {seed + i}" if as_match else f"game {seed + i}"
                bar.echo(f"{label}: points {list(points)}, winner: player {winner + 1}")
            bar.advance()
    summary = {"players": players, "bots": bots, "games": games, "match": as_match, "wins": wins,
               "mean_points": [round(t / max(games, 1), 3) for t in total_points]}
    click.echo(json.dumps({"summary": summary}) if as_json else f"summary: {summary}")


@knights.command()
@click.option("--players", "players_spec", required=True,
              help="2 to 4 bots, comma-separated, e.g. mc,heuristic,heuristic (a name may repeat).")
@click.option("--games", type=COUNT, default=30, show_default=True, help="Games in all; seats rotate every game.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="The first seed: game i is played on seed SEED + i // n at rotation i % n (n players).")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Processes to play games in parallel.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write the results, game by game, to this JSON file.")
def arena(players_spec: str, games: int, seed: int, workers: int, json_path: Path | None) -> None:
    """Measure computer players against each other in every seat rotation."""
    names = tuple(p.strip().lower() for p in players_spec.split(",") if p.strip())
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise click.UsageError(f"--players takes {MIN_PLAYERS} to {MAX_PLAYERS} names, e.g. mc,heuristic,heuristic")
    _bots(",".join(names), len(names))
    with Progress(" vs ".join(names), games=True):
        report = run_arena(names, games, seed, workers)
    click.echo(report.text())
    if json_path is not None:
        json_path.write_text(json.dumps(report.to_json(), indent=1), encoding="utf-8")


@knights.command()
@LANG
def cards(lang: str) -> None:
    """Print the strength table (a reconstruction: only the knight's strengths are printed on the cards)."""
    table = load_cards()
    width = max(len(card_name(c, lang)) for c in ARMY) + 2
    header = "".join(f"{say(f'castle-kind.{k.key}', lang):>11}" for k in CastleKind)
    click.echo(f"{'':<{width}}{header}")
    for army_card in ARMY:
        click.echo(f"{card_name(army_card, lang):<{width}}"
                   + "".join(f"{table.of(army_card, k):>11}" for k in CastleKind))


@knights.command()
@click.argument("file", type=click.Path(path_type=Path))
@LANG
def replay(file: Path, lang: str) -> None:
    """Verify the saved game FILE by replaying it, and print it step by step."""
    try:
        state = records.replay(read_record_file(file))
    except RecordError as exc:
        fail(exc.text(lang), lang)
    for event in state.events:
        for line in event_lines(event, lang):
            click.echo(line)
    status = say("report.finished", lang) if state.is_over() else say("knights.in-progress", lang, round=state.round)
    click.echo(say("report.replays", lang, file=str(file), status=status))


# ------------------------------------------------------------------------------- the terminal game


def _hand_options(view: View) -> list[Card]:
    """Return the distinct cards the person may pick from, as numbered on screen (strongest here first)."""
    castle = _castle_kind(view)
    army = [c for c in ARMY if view.hand[c]]
    if castle is not None:
        army.sort(key=lambda c: -view.table.of(c, castle))
    return army + ([Card.SHEPHERD] if view.hand[Card.SHEPHERD] else [])


def _castle_kind(view: View) -> CastleKind | None:
    return None if view.tile is None else TILES[view.tile].kind


def _card_from_text(text: str, options: Sequence[Card], lang: str) -> Card | None:
    t = text.strip().lower()
    if t.isdigit():
        n = int(t)
        return options[n - 1] if 1 <= n <= len(options) else None
    for option in options:
        names = {option.key, option.key.replace("-", " ")} | {card_name(option, lg).lower() for lg in languages()}
        if t in names:
            return option
    return None


def _split(text: str) -> list[str]:
    for sep in (",", "+"):
        if sep in text:
            return [p for p in text.split(sep) if p.strip()]
    return text.split()


def parse_choice(text: str, view: View, lang: str) -> tuple[PlayerAction | None, str]:
    """Return the action the person typed, or None and what is wrong."""
    options = _hand_options(view)
    if view.phase is Phase.RECRUIT:
        camp = [c for c in ARMY if view.camp[c]]
        taken = _card_from_text(text, camp, lang)
        if taken is None:
            return None, say("knights.bad-card", lang, text=text.strip())
        return Recruit(taken), ""
    parts = _split(text)
    if len(parts) != 2:
        return None, say("knights.bad-choose", lang)
    picked = []
    for part in parts:
        chosen = _card_from_text(part, options, lang)
        if chosen is None:
            return None, say("knights.bad-card", lang, text=part.strip())
        picked.append(chosen)
    a, b = picked
    if a == b and view.hand[a] < 2:
        return None, say("knights.bad-twice", lang, card=card(a))
    return Choose(a, b), ""


def show_table(view: View, lang: str) -> None:
    """Print everything the person may see before choosing."""
    reader = reader_of(view.player)

    def line(key: str, **params: object) -> None:
        click.echo(say(f"knights.{key}", lang, None, reader, **params))

    click.echo()
    for p in range(view.setup.players):
        castles = [tile(t) for t in view.castles[p]]
        line("status-castles" if castles else "status", player=Seat(p), points=view.points[p], castles=castles,
             hand=view.hand_sizes[p], camp=view.camp_sizes[p])
    line("sword-holder", player=Seat(view.sword))
    line("tiles-unseen", tiles=[tile(t) for t in view.unseen])
    line("knowledge-title")
    for p in range(view.setup.players):
        if p != view.player:
            known = deduce(view, p)
            line("knowledge", player=Seat(p), hand=cards_words(known.in_hand), camp=cards_words(known.in_camp),
                 either=cards_words(known.either))
    camp = [c for c in ARMY if view.camp[c]]
    line("your-camp", cards=cards_words(camp))
    if view.phase is Phase.RECRUIT:
        for n, c in enumerate(camp, start=1):
            line("camp-line", n=n, card=card(c))
        return
    castle = _castle_kind(view)
    assert castle is not None
    line("your-hand", kind=Term(f"castle-kind.{castle.key}"))
    for n, c in enumerate(_hand_options(view), start=1):
        if c is Card.SHEPHERD:
            line("shepherds-line", n=n, count=view.hand[c])
        else:
            line("hand-line", n=n, card=card(c), strength=view.table.of(c, castle))


def ask(view: View, lang: str) -> PlayerAction:
    """Prompt until the person names a legal action."""
    show_table(view, lang)
    key = "prompt-recruit" if view.phase is Phase.RECRUIT else "prompt-choose"
    while True:
        text = click.prompt(say(f"knights.{key}", lang), prompt_suffix=": ")
        action, problem = parse_choice(text, view, lang)
        if action is not None and action in view.legal_actions():
            if isinstance(action, Choose):
                click.echo(say("knights.your-choice", lang, cards=cards_words(action.cards)))
            else:
                click.echo(say("knights.your-recruit", lang, card=card(action.card)))
            return action
        click.echo(problem or say("knights.bad-choose", lang))


def play_terminal_game(
    setup: KnightsSetup, seat: int, bots: Sequence[KnightsBot], seed: int, lang: str
) -> PlayedGame:
    """Play one game with a person at ``seat`` and bots elsewhere; print what the person may see."""
    state = KnightsState.new(setup)
    tiles = SeededTiles(seed, setup)
    rngs = [bot_rng(seed, s) for s in range(setup.players)]
    game = PlayedGame(setup, seed, [], state)
    shown = 0
    click.echo(say("knights.seat-line", lang, None, reader_of(seat), n=seat + 1, youngest=Seat(setup.youngest_seat),
                   sword=Seat(setup.first_sword)))
    while not state.is_over():
        action: Action
        if state.is_chance():
            action = tiles.outcome(state)
        elif state.current == seat:
            action = ask(state.view(seat), lang)
        else:
            action = bots[state.current].choose(state, rngs[state.current])
        state.play(action)
        game.actions.append(action)
        events = state.view(seat).events
        new, shown = events[shown:], len(events)
        if new:
            click.echo()
        for event in new:
            for line in event_lines(event, lang, you=seat):
                click.echo(line)
    return game


@knights.command()
@PLAYERS
@LANG
@click.option("--seat", type=click.IntRange(1, MAX_PLAYERS), default=1, show_default=True,
              help="Your seat, 1 to PLAYERS (the last is the youngest).")
@click.option("--bots", "bot_spec", default="heuristic", show_default=True,
              help=f"The computer players: one name for all, or one per other seat ({', '.join(BOT_NAMES)}, mc:N).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the game (random if omitted; shown when the game is over).")
@click.option("--match", "as_match", is_flag=True, help="Play a match (K7): as many games as players, points added.")
@click.option("--save", type=OutputFile(), default=None,
              help="Save the game (the last game of a match) to this file.")
def play(players: int, lang: str, seat: int, bot_spec: str, seed: int | None, as_match: bool,
         save: Path | None) -> None:
    """Play against computer players in the terminal."""
    if not 1 <= seat <= players:
        raise click.UsageError(f"--seat must be 1 to {players}")
    names = _bots(bot_spec, players - 1)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    human = seat - 1
    bots: list[KnightsBot] = []
    it = iter(names)
    for s in range(players):
        bots.append(make_bot("random") if s == human else make_bot(next(it)))  # the person's seat never asks it
    click.echo(say("knights.title", lang))
    reader = reader_of(human)
    # The seed alone fixes the tiles and the computer players' choices, so it is shown only once the
    # game is over (for a replay), never before: whoever read it would know the stack.
    setups = match_setups(players) if as_match else [KnightsSetup(players=players)]
    results = []
    game: PlayedGame | None = None
    for g, setup in enumerate(setups):
        if as_match:
            click.echo()
            click.echo(say("knights.match-game", lang, None, reader, game=g + 1, games=len(setups),
                           player=Seat(setup.first_sword)))
        game = play_terminal_game(setup, human, bots, seed + g, lang)
        result = game.state.result()
        assert result is not None
        results.append(result)
    if as_match:
        outcome = match_result(setups[0], results)
        totals = [Message("knights.match-total", {"player": Seat(p), "points": outcome.points[p]})
                  for p in range(players)]
        click.echo(say("knights.match-totals", lang, None, reader, totals=totals))
        click.echo(say("knights.match-winner", lang, None, reader, player=Seat(outcome.winner)))
    click.echo(say("knights.seed-end", lang, seed=seed))
    if save is not None and game is not None:
        rec = records.make_record(game.setup, game.seed, game.actions, game.state)
        save.write_text(json.dumps(rec, indent=1), encoding="utf-8")

