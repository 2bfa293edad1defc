"""The commands about single castle games: ``watch`` and ``selfplay`` play them; ``replay``, ``show`` and
``analyse`` read a saved one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from zamek.castle import record as records
from zamek.castle.render import render_castle
from zamek.castle.report import breakdown, describe_move, describe_moves, item_line, player_name
from zamek.castle.rules.actions import Action, Draw
from zamek.castle.rules.editions import EDITIONS
from zamek.castle.rules.errors import RecordError
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game
from zamek.cli.options import COUNT, LANG, SEED, OutputFolder, fail, make_folder, rule_options
from zamek.cli.progress import Progress, watched
from zamek.i18n import Seat, say
from zamek.kit.records import read_record_file


def edition_named(file: Path) -> str | None:
    """The edition a saved game names, for its refusal's words (C1: a 2003 game's road is a path); None if the file
    does not say (or cannot be read)."""
    try:
        edition = read_record_file(file).get("setup", {}).get("edition")
    except (RecordError, AttributeError):
        return None
    return edition if edition in EDITIONS else None


@click.command()
@click.option("--seed", type=SEED, default=None, help="Seed of the game (random if omitted).")
@rule_options
@LANG
def watch(seed: int | None, setup: Setup, lang: str) -> None:
    """Watch two computer players play a game: the moves, the final castle and the score breakdown."""
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    click.echo(say("report.seed", lang, setup.edition, seed=seed))

    def on_action(state: GameState, action: Action) -> None:
        text = describe_move(state, action, lang)
        click.echo(text if isinstance(action, Draw) else f"  {text}")

    game = play_game(seed, setup=setup, on_action=on_action)
    click.echo()
    click.echo(render_castle(game.state))
    click.echo()
    click.echo(breakdown(game.state, lang))


@click.command()
@click.option("--games", type=COUNT, default=10, show_default=True, help="How many games to play.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Game i uses seed SEED + i.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game, then a summary line.")
@click.option("--save", type=OutputFolder(), default=None, help="Save each game here.")
@rule_options
def selfplay(games: int, seed: int, as_json: bool, save: Path | None, setup: Setup) -> None:
    """Play random-vs-random games."""
    if save is not None:
        make_folder(save)
    wins = [0, 0, 0]
    total_scores = [0, 0]
    with Progress("games", games, shown=watched(as_json)) as bar:
        for i in range(games):
            game = play_game(seed + i, setup=setup)
            state = game.state
            result = state.result()
            assert result is not None
            wins[2 if len(result.winners) == 2 else result.winners[0]] += 1
            total_scores[0] += state.scores[0]
            total_scores[1] += state.scores[1]
            if save is not None:
                rec = records.make_record(game.setup, game.seed, game.actions, state)
                (save / f"game-{game.seed}.json").write_text(json.dumps(rec, indent=1), encoding="utf-8")
            line = {
                "seed": game.seed,
                "rules": setup.name,
                "first_player": game.setup.first_player,
                "scores": state.scores,
                "tiles_placed": len(state.placements),
                "tiles_discarded": len(state.discarded),
                "actions": len(game.actions),
            }
            bar.echo(json.dumps(line) if as_json else f"game {game.seed}: {state.scores[0]}-{state.scores[1]}, "
                     f"{line['tiles_placed']} placed, {line['tiles_discarded']} discarded")
            bar.advance()
    summary = {"rules": setup.name, "games": games, "wins": wins[:2], "draws": wins[2],
               "mean_scores": [round(s / max(games, 1), 2) for s in total_scores]}
    click.echo(json.dumps({"summary": summary}) if as_json else f"summary: {summary}")


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@LANG
def replay(file: Path, lang: str) -> None:
    """Verify the saved game FILE by replaying it, and print its score breakdown."""
    try:
        state = records.replay(read_record_file(file))
    except RecordError as exc:
        fail(exc.text(lang, edition_named(file)), lang)
    status = say("report.finished", lang) if state.is_over() else say("report.in-progress", lang, turn=state.turn)
    click.echo(say("report.replays", lang, file=str(file), status=status))
    click.echo(breakdown(state, lang))


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--move", type=click.IntRange(0), default=None,
              help="Show the castle after this many moves (default: all).")
@LANG
def show(file: Path, move: int | None, lang: str) -> None:
    """Print the castle of the saved game FILE, at the end or after a given move."""
    try:
        state = records.replay(read_record_file(file), upto=move)
    except RecordError as exc:
        fail(exc.text(lang, edition_named(file)), lang)
    edition = state.setup.edition
    click.echo(render_castle(state))
    click.echo()
    click.echo(say("report.scores", lang, edition, first=player_name(0, lang), first_points=state.scores[0],
                   second=player_name(1, lang), second_points=state.scores[1]))
    for item in state.log[-3:]:
        click.echo("  " + say("report.turn-line", lang, edition, turn=item.turn, line=item_line(item, lang, edition)))


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the whole analysis as JSON.")
@click.option("--all", "every", is_flag=True, help="List every decision, not only the flagged ones.")
@LANG
def analyse(file: Path, as_json: bool, every: bool, lang: str) -> None:
    """Judge every decision of the saved game FILE by the expert's estimate: the expected final lead before and
    after, the loss against the best move, and flags for inaccuracies, mistakes and blunders."""
    from zamek.castle.analysis import analyse as analyse_record  # the search loads only for this command

    try:
        raw = read_record_file(file)
        with Progress("judging the moves", shown=watched(as_json)) as bar:
            result = analyse_record(raw, on_move=bar.to)
        state = records.replay(raw, 0)
    except RecordError as exc:
        fail(exc.text(lang, edition_named(file)), lang)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return
    edition = state.setup.edition
    click.echo(say("analysis.title", lang, edition, first=Seat(0)))
    for player in (0, 1):
        summary = result.summary(player)
        click.echo("  " + say("analysis.summary", lang, edition, player=Seat(player),
                              **{key: value for key, value in summary.items() if key != "player"}))
    thresholds = result.to_json()["thresholds"]
    click.echo("  " + say("analysis.thresholds", lang, edition, **thresholds))
    _, actions = records.read_record(raw)
    decisions = {d.index: d for d in result.decisions}
    for index, action in enumerate(actions):
        decision = decisions.get(index)
        if decision is not None and (every or decision.flag is not None):
            flag = say(f"analysis.flag-{decision.flag or 'ok'}", lang, edition)
            click.echo(say("analysis.line", lang, edition, number=index + 1, flag=flag, loss=decision.loss,
                           before=f"{decision.lead_before:+.1f}", after=f"{decision.lead_after:+.1f}"))
            played = describe_moves(state, decision.played, lang)
            click.echo("    " + say("analysis.played", lang, edition, move=played))
            if decision.played != decision.best:
                best = describe_moves(state, decision.best, lang)
                click.echo("    " + say("analysis.best", lang, edition, move=best))
        state.apply(action)
